package io.leasehold.lease;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The waiting side of the controller lease: reads who holds it, and takes it when it was seen unrenewed for
 * a full duration (or was given back, or never existed), adopts an earlier take whose answer was lost, or
 * serves unleased while the store refuses this user and nobody holds it. Runs on the lease's step thread;
 * the state it moves is the {@link ControllerLease}'s, by compare-and-set.
 */
final class Candidate extends LeaseSide {

    private static final long NEVER = Long.MIN_VALUE;

    private final Sighting sighting = new Sighting();
    /** When a live entry of another holder was last seen in a new form (NEVER: not seen). */
    private long liveChangedAtNanos = NEVER;
    /** The highest revision read and handed to the floor (only without a lasting floor). */
    private volatile long seenRecorded;
    private final AtomicBoolean remembering = new AtomicBoolean();

    Candidate(ControllerLease lease, Parts parts) {
        super(lease, parts);
    }

    /** One step while waiting (or serving unleased): read who holds the lease, then take, adopt or wait. */
    void step(LeaseState current) {
        Optional<LeaseStore.Versioned> seen;
        try {
            seen = calls.call(store::read, candidateBound());
        } catch (LeaseStoreException e) {
            waitingOrUnleased(current, e, "who holds the lease cannot be read", noLiveHolderSeenLately());
            return;
        }
        if (seen.isPresent()) {
            resets.storeInUse(); // a store seen new before must be seen new for a whole max-skew after a value
        }
        if (seen.isPresent() && seen.get().record().heldBy(me)) {
            adopt(current, seen.get()); // an earlier take whose answer was lost did land
            return;
        }
        if (seen.isPresent() && !seen.get().record().vacant() && current.is(LeaseState.Mode.UNLEASED)) {
            lease.lose(current, "another instance (" + seen.get().described()
                    + ") holds the lease while this one served"
                    + " without it");
            return;
        }
        if (seen.isEmpty() || seen.get().record().vacancy() == LeaseRecord.Vacancy.RELEASED) {
            take(current, seen.orElse(null));
            return;
        }
        LeaseStore.Versioned held = seen.get();
        rememberSeen(held.revision());
        long now = clock.monotonicNanos();
        long unchanged = sighting.unchangedFor(held, now);
        long left = timing.duration().toNanos() - unchanged;
        if (!held.record().vacant() && unchanged == 0) {
            liveChangedAtNanos = now;
        }
        if (left > 0) {
            lease.standing = waitingFor(held);
            if (left < timing.renewEvery().toNanos()) {
                lease.takeWhenDue(left); // the next tick could come a hair early and the take slip a whole period
            }
            return;
        }
        take(current, held);
    }

    /** The store may refuse this user only while nobody is known to hold the lease: then serve unleased. */
    private boolean noLiveHolderSeenLately() {
        return liveChangedAtNanos == NEVER
                || clock.monotonicNanos() - liveChangedAtNanos >= timing.duration().toNanos();
    }

    private Standing waitingFor(LeaseStore.Versioned held) {
        if (held.record().vacancy() == LeaseRecord.Vacancy.RESET) {
            return lease.standing.with("waiting", 0, null, null, "the lease store was reset: waiting until it was seen"
                    + " unchanged for a full " + timing.duration() + " before taking, as an earlier holder may"
                    + " still be acting");
        }
        return lease.standing.with("waiting", held.epoch(), held.record().holder(), null,
                "held by " + held.described());
    }

    /** {@code over}: the vacancy or the abandoned holding the update replaces; null to create. */
    private void take(LeaseState current, LeaseStore.Versioned seen) {
        // Whoever this replaces was seen unrenewed for a full duration (or gave it back): act under nothing now,
        // and nothing under a borrowed epoch runs on past this instance's first act under its own.
        lease.endBorrowing("this instance takes the lease");
        lease.standing = lease.standing.with("waiting", 0, null, null, "taking the lease");
        long sentAt = clock.monotonicNanos();
        LeaseStore.Versioned over = seen;
        boolean resetChecked = false;
        long revision;
        try {
            StoreResets.Moved moved = resets.moveIfBehind(candidateBound());
            if (moved.waiting() != null) {
                lease.standing = lease.standing.with("waiting", 0, null, null, moved.waiting());
                return;
            }
            Standing.Reset reset = moved.reset();
            if (reset != null) {
                events.storeReset(reset);
                lease.standing = lease.standing.withReset(reset);
                over = null; // the move purged the key
            }
            StoreResets.Marked marked = over == null ? resets.markIfReset(candidateBound()) : null;
            resetChecked = true;
            if (marked != null) {
                sighting.forget();
                if (marked.mine() != null) {
                    // Written after the wipe, so after the old holder's last renewal: the wait counts from here.
                    sighting.unchangedFor(marked.mine(), sentAt);
                }
                lease.standing = lease.standing.with("waiting", 0, null, null,
                        "the lease store has no lease though epochs were"
                        + " issued (it was reset): waiting until its reset mark was seen unchanged for a full "
                        + timing.duration() + " before taking, as an earlier holder may still be acting");
                return;
            }
            LeaseRecord record = new LeaseRecord(me, 0, clock.now(), clock.now());
            // Epoch 0 in the value means "the revision of this very write": the first renewal writes it out.
            long at = over == null ? 0 : over.revision();
            lease.takeUnanswered = true;
            revision = over == null ? calls.call(() -> store.create(record), candidateBound())
                    : calls.call(() -> store.update(record, at), candidateBound());
            lease.takeUnanswered = false;
            lease.ownWrite(revision, revision);
            resets.issued(revision);
        } catch (LeaseStoreException e) {
            // A refusal while checking for a reset proves nothing about who may still act: never unleased then.
            waitingOrUnleased(current, e, "the lease could not be taken", resetChecked && noLiveHolderSeenLately());
            return;
        } catch (IOException e) {
            floorUnusable(e);
            return;
        }
        Instant takenAt = clock.now();
        LeaseState held = LeaseState.held(revision, revision, sentAt, takenAt);
        if (!lease.state.compareAndSet(current, held)) {
            return; // released meanwhile: the release, queued after this step, gives it back
        }
        lease.standing = lease.standing.with("held", revision, me, takenAt, "held by this instance");
        events.took(revision, over == null || over.record().vacant() ? null : over);
        lease.armDeadline(held); // last: a take born past its deadline is lost at once, and says so
    }

    private void adopt(LeaseState current, LeaseStore.Versioned mine) {
        lease.endBorrowing("this instance holds the lease: an earlier take of it had landed");
        long epoch = mine.epoch();
        try {
            resets.issued(epoch);
        } catch (IOException e) {
            floorUnusable(e);
            return;
        }
        // The entry may be as old as a full duration: hold it only once a renewal of it has succeeded.
        long sentAt = clock.monotonicNanos();
        Instant taken = mine.record().takenAt() == null ? clock.now() : mine.record().takenAt();
        LeaseRecord record = new LeaseRecord(me, epoch, taken, clock.now());
        long revision;
        try {
            revision = calls.call(() -> store.update(record, mine.revision()), candidateBound());
        } catch (LeaseStoreException e) {
            waitingOrUnleased(current, e, "an earlier take of this instance could not be confirmed", false);
            return;
        }
        lease.ownWrite(revision, epoch);
        LeaseState held = LeaseState.held(epoch, revision, sentAt, taken);
        if (!lease.state.compareAndSet(current, held)) {
            if (lease.state.get().is(LeaseState.Mode.RELEASED)) {
                lease.ownWrite(revision, epoch); // the release queued after this step gives it back
            }
            return;
        }
        lease.standing = lease.standing.with("held", epoch, me, record.renewedAt(), "held by this instance");
        events.adopted(epoch);
        lease.armDeadline(held);
    }

    private void waitingOrUnleased(LeaseState current, LeaseStoreException e, String what, boolean mayServeUnleased) {
        String why = what + ": " + e.getMessage();
        if (e.kind() == LeaseStoreException.Kind.DENIED && (mayServeUnleased || current.is(LeaseState.Mode.UNLEASED))) {
            if (current.is(LeaseState.Mode.WAITING) && lease.state.compareAndSet(current, LeaseState.UNLEASED)) {
                events.unleased(why);
            }
            if (lease.state.get().is(LeaseState.Mode.UNLEASED)) {
                lease.standing = lease.standing.with("unleased", 0, null, null, why);
            }
            return;
        }
        lease.standing = lease.standing.with(current.is(LeaseState.Mode.UNLEASED) ? "unleased" : "waiting", 0,
                lease.standing.holder(),
                null, why);
    }

    private void floorUnusable(IOException e) {
        // Without the floor on record a later epoch could go backwards: do not act.
        String why = "not taking the controller lease: the epoch floor in the spool is unusable: " + e.getMessage();
        lease.standing = lease.standing.with("waiting", 0, null, null, why);
        events.floorUnusable(why);
    }

    /**
     * Where no floor outlives the bus's data, a candidate keeps the revisions it reads in its own: a store
     * wiped while it runs is then moved past them whatever its clock says. Off the step thread, as a
     * holder's renewals are; a write that fails leaves the clock's floor, which is enough.
     */
    private void rememberSeen(long revision) {
        if (!resets.fromClock() || revision <= seenRecorded) {
            return;
        }
        seenRecorded = revision;
        // One write at a time: behind a stuck disk, reads must not park a thread each in the call pool.
        if (!remembering.compareAndSet(false, true)) {
            seenRecorded = 0; // skipped: the next read hands on the revision it shows
            return;
        }
        try {
            callThreads.execute(() -> {
                try {
                    resets.issued(revision);
                } catch (IOException e) {
                    seenRecorded = 0; // the next read tries again; the clock's floor still holds meanwhile
                } finally {
                    remembering.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            seenRecorded = 0;
            remembering.set(false);
        }
    }

    /**
     * A candidate has no deadline to keep, so its calls may take longer than a tick: long enough for a
     * permission refusal, which NATS only reports after its own request timeout, to be told apart
     * from silence. Ticks that fall due meanwhile make one step, run when this one ends.
     */
    private Duration candidateBound() {
        return timing.duration();
    }
}
