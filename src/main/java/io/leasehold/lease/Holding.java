package io.leasehold.lease;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The held side of the controller lease: each step renews at the revision of this holder's last write,
 * bounded by what is left of the renew-deadline; an unanswered renewal is retried until the deadline, a
 * refused one is checked against the entry (a renewal whose answer was lost may have landed), and
 * anything else loses the lease. Runs on the lease's step thread; the deadline itself is the
 * {@link ControllerLease}'s timer.
 */
final class Holding extends LeaseSide {

    /** When the first renewal since the last answered one was sent (0: none unanswered). */
    private long firstUnansweredSentAt;
    private final AtomicBoolean recording = new AtomicBoolean();

    Holding(ControllerLease lease, Parts parts) {
        super(lease, parts);
    }

    /** One step while holding: renew within the deadline, or lose the lease. */
    void step(LeaseState held) {
        long deadlineAt = held.sentAtNanos() + timing.renewDeadline().toNanos();
        long sentAt = clock.monotonicNanos();
        if (sentAt >= deadlineAt - BoundedCalls.SHORTEST.toNanos()) {
            lease.expire(held);
            return;
        }
        LeaseRecord record = new LeaseRecord(me, held.epoch(), held.takenAt(), clock.now());
        try {
            long revision = calls.call(() -> store.update(record, held.revision()),
                    Duration.ofNanos(deadlineAt - sentAt));
            LeaseState renewed = held.renewed(revision, sentAt);
            firstUnansweredSentAt = 0;
            if (lease.state.compareAndSet(held, renewed)) {
                lease.ownWrite(revision, held.epoch());
                lease.standing = lease.standing.with("held", held.epoch(), me, record.renewedAt(),
                        "held by this instance");
                lease.armDeadline(renewed);
                recordRevision(revision);
            } else if (lease.state.get().is(LeaseState.Mode.RELEASED)) {
                lease.ownWrite(revision, held.epoch()); // the release queued after this step gives it back
            }
        } catch (LeaseStoreException e) {
            switch (e.kind()) {
                case INDETERMINATE -> {
                    if (firstUnansweredSentAt == 0) {
                        firstUnansweredSentAt = sentAt;
                    }
                    events.renewalUnanswered(held.epoch(), e.getMessage());
                    if (clock.monotonicNanos() >= deadlineAt) {
                        lease.expire(held);
                    }
                }
                case CONFLICT -> recheckAfterConflict(held, deadlineAt);
                default -> lease.lose(held, "the store refused the renewal: " + e.getMessage());
            }
        }
    }

    /** Someone wrote: only if the entry still shows this holder's own last write may it go on. */
    private void recheckAfterConflict(LeaseState held, long deadlineAt) {
        long left = deadlineAt - clock.monotonicNanos();
        Optional<LeaseStore.Versioned> seen;
        try {
            seen = calls.call(store::read, Duration.ofNanos(Math.max(0, left)));
        } catch (LeaseStoreException e) {
            events.renewalUnanswered(held.epoch(), "after a refused renewal, the lease could not be read: "
                    + e.getMessage());
            if (clock.monotonicNanos() >= deadlineAt) {
                lease.expire(held);
            }
            return;
        }
        if (seen.isPresent() && seen.get().record().heldBy(me) && seen.get().epoch() == held.epoch()
                && seen.get().revision() > held.revision() && firstUnansweredSentAt != 0) {
            LeaseState landed = held.atRevision(seen.get().revision(), firstUnansweredSentAt);
            firstUnansweredSentAt = 0;
            if (lease.state.compareAndSet(held, landed)) {
                lease.ownWrite(seen.get().revision(), held.epoch()); // a renewal whose answer was lost had landed
                lease.armDeadline(landed);
            } else if (lease.state.get().is(LeaseState.Mode.RELEASED)) {
                lease.ownWrite(seen.get().revision(), held.epoch()); // the release queued after this step gives it back
            }
            return;
        }
        lease.lose(held, "another writer changed the lease: "
                + seen.map(LeaseStore.Versioned::described).orElse("it was deleted"));
    }

    /**
     * The floor also records each renewal's revision: after a wipe the revisions are moved past it, so
     * the reset mark can never land at the revision this holder's next renewal expects (which would let
     * that renewal overwrite the mark and the holding silently survive the reset). Failing to record it
     * costs only that; the holding goes on.
     */
    private void recordRevision(long revision) {
        // Off the step thread, one at a time: a slow or locked spool must never delay the next renewal.
        // A write skipped because one is running is covered by the next renewal's.
        if (!recording.compareAndSet(false, true)) {
            return;
        }
        try {
            callThreads.execute(() -> {
                try {
                    resets.issued(revision);
                } catch (IOException e) {
                    events.floorUnusable("the epoch floor could not record revision " + revision + " ("
                            + e.getMessage() + "): after a wipe of the store this holding might outlive the reset");
                } finally {
                    recording.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            recording.set(false);
        }
    }
}
