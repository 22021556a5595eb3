package io.leasehold.lease;

import io.leasehold.core.DurationText;
import io.leasehold.core.Clock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * This process's side of the controller lease, as an explicit state machine driven by ticks every
 * {@code renew-every}:
 *
 * <pre>
 *   waiting ──take (create, or update at a revision seen unchanged for a full duration)──▶ held
 *   waiting ──the store refuses this user and nobody holds it─────────────────────────▶ unleased
 *   unleased ──take succeeds──▶ held          unleased ──another holder seen──▶ lost
 *   held ──renewal refused, or none succeeded within renew-deadline───────────────────▶ lost
 *   any but lost ──release──▶ released                      (lost and released are final)
 * </pre>
 *
 * <p>Steps and the release run one at a time ({@link SerialSteps}); the state is one value replaced
 * by compare-and-set, so the deadline timer, which fires on the clock's own timer thread however
 * busy the workers are, can end a holding at its deadline without waiting for a step, and a step
 * that finishes after a release or a loss changes nothing. Uncertainty counts as loss: a call that
 * does not answer in time is never a success, and the deadline is counted on this process's
 * monotonic clock from the moment its last successful renewal was <em>sent</em>.
 *
 * <p>What it does not guarantee: an act already under way when the lease is lost is not undone (the
 * {@link LeaseEvents#lost} listener must stop it by {@link LeaseEvents.Loss#killAtNanos()}); a process
 * frozen as a whole (SIGSTOP) runs no timer, so only receivers that compare epochs make it harmless.
 */
public final class ControllerLease implements LeaseGate {

    private static final Duration RELEASE_LIMIT = Duration.ofSeconds(2);

    private final LeaseStore store;
    private final StoreResets resets;
    private final Clock clock;
    private final LeaseTiming timing;
    private final Holder me;
    private final BoundedCalls calls;
    private final SerialSteps steps;
    private final LeaseEvents events;
    private final AtomicReference<LeaseState> state = new AtomicReference<>(LeaseState.WAITING);
    private final Sighting sighting = new Sighting();

    private volatile Standing standing = new Standing("waiting", 0, null, null, "the lease has not been tried yet",
            null);
    /** The revision of this process's last write as holder, while the key may still show it; 0 for none. */
    private volatile long ownRevision;
    private volatile long ownEpoch;
    private volatile Clock.Timer deadline;
    private volatile Clock.Timer due;
    /** Step thread only: when the first renewal since the last answered one was sent (0: none unanswered). */
    private long firstUnansweredSentAt;
    /** Step thread only: when a live entry of another holder was last seen in a new form (NEVER: not seen). */
    private long liveChangedAtNanos = NEVER;
    private static final long NEVER = Long.MIN_VALUE;
    /** What a waiting instance acts under beside the holder ({@code claims} mode); null: nothing while waiting. */
    private volatile Borrowing borrowing;
    /** The highest revision a candidate read and handed to the floor (only without a lasting floor). */
    private volatile long seenRecorded;
    /** A take whose answer was lost may have landed: a release looks for it. */
    private volatile boolean takeUnanswered;
    /** What standing() says once lost, whatever a step still finishing writes. */
    private volatile Standing lostStanding;
    private final AtomicBoolean recording = new AtomicBoolean();
    private final AtomicBoolean remembering = new AtomicBoolean();
    private final Executor callThreads;

    /**
     * @param steps where steps run (one at a time is ensured here)
     * @param calls where bounded store calls run: a pool that grows, as an abandoned call keeps its thread
     */
    public ControllerLease(LeaseStore store, EpochFloor floor, Clock clock, LeaseTiming timing, Holder me,
            Executor steps, Executor calls, LeaseEvents events) {
        this(store, floor, null, clock, timing, me, steps, calls, events);
    }

    /**
     * @param wall null when {@code floor} outlives the bus's data (it lives in a shared spool); else what
     *     a store found new is moved past (see {@link WallClockFloor})
     */
    public ControllerLease(LeaseStore store, EpochFloor floor, WallClockFloor wall, Clock clock, LeaseTiming timing,
            Holder me, Executor steps, Executor calls, LeaseEvents events) {
        this.store = store;
        this.clock = clock;
        this.timing = timing;
        this.me = me;
        this.calls = new BoundedCalls(calls);
        this.callThreads = calls;
        this.resets = new StoreResets(store, floor, this.calls, clock, me, wall);
        this.steps = new SerialSteps(steps);
        this.events = events;
    }

    /**
     * While waiting, acts pass under the holder's epoch as {@code borrowing} lends it (see docs/lease.md,
     * "Borrowed epochs"); a take ends that borrowing before the take is written. Set once, before the first tick.
     */
    public void lendWhileWaiting(Borrowing borrowing) {
        this.borrowing = borrowing;
    }

    /** Whether this instance waits for the lease (another may hold it): when a borrowing reads for it. */
    public boolean waiting() {
        return state.get().is(LeaseState.Mode.WAITING);
    }

    public Standing standing() {
        Standing lost = lostStanding;
        if (lost != null) {
            return lost;
        }
        Standing now = standing;
        Borrowing lent = borrowing;
        if (lent == null || now.holder() == null || !now.mode().equals("waiting")) {
            return now;
        }
        long borrowed = lent.epoch();
        return now.with("waiting", now.epoch(), now.holder(), now.renewedAt(), now.reason() + (borrowed > 0
                ? "; this instance acts beside the holder under its epoch " + borrowed + " while it sees the holder renew"
                : "; this instance acts beside the holder only once it sees the holder renew"));
    }

    /**
     * One step of the state machine, submitted now: what the renew-every tick runs. Completes when it
     * has run. A plain future, so the lease needs no reactive library; the wiring adapts it.
     */
    public CompletableFuture<Void> tick() {
        return steps.submit(this::step);
    }

    void step() {
        LeaseState now = state.get();
        switch (now.mode()) {
            case HELD -> renew(now);
            case WAITING, UNLEASED -> candidate(now);
            default -> {
            }
        }
    }

    @Override
    public long epochForAct() throws ActRefused {
        LeaseState now = state.get();
        switch (now.mode()) {
            case HELD:
                if (clock.monotonicNanos() - now.sentAtNanos() >= timing.renewDeadline().toNanos()) {
                    expire(now);
                    throw new ActRefused(standing.reason());
                }
                return now.epoch();
            case UNLEASED:
                return 0;
            case LOST:
                throw new ActRefused("the controller lease was lost: " + standing.reason());
            case RELEASED:
                throw new ActRefused("the controller lease was given back at shutdown");
            default:
                long borrowed = borrowed();
                if (borrowed > 0) {
                    return borrowed; // acting beside the holder, under its epoch while it is seen renewing
                }
                throw new ActRefused("nobody holds the controller lease, or its holder was not seen renewing lately: "
                        + standing.reason());
        }
    }

    /** Whether an act would pass the gate now (without the side effects of asking). */
    public boolean canAct() {
        LeaseState now = state.get();
        return leads(now) || (now.is(LeaseState.Mode.WAITING) && borrowed() > 0);
    }

    private long borrowed() {
        Borrowing lent = borrowing;
        return lent == null ? 0 : lent.epoch();
    }

    /** Before this instance acts under an epoch of its own: nothing of a borrowed one runs on. */
    private void endBorrowing(String why) {
        Borrowing lent = borrowing;
        if (lent != null) {
            lent.endNow(why);
        }
    }

    /** Whether this instance is the one the lease names (or serves unleased): who drains in leader mode. */
    public boolean leads() {
        return leads(state.get());
    }

    private boolean leads(LeaseState now) {
        return (now.is(LeaseState.Mode.HELD)
                && clock.monotonicNanos() - now.sentAtNanos() < timing.renewDeadline().toNanos())
                || now.is(LeaseState.Mode.UNLEASED);
    }

    private void candidate(LeaseState current) {
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
            lose(current, "another instance (" + describe(seen.get()) + ") holds the lease while this one served"
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
            standing = waitingFor(held);
            if (left < timing.renewEvery().toNanos()) {
                takeWhenDue(left); // the next tick could come a hair early and the take slip a whole period
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
            return standing.with("waiting", 0, null, null, "the lease store was reset: waiting until it was seen"
                    + " unchanged for a full " + timing.duration() + " before taking, as an earlier holder may"
                    + " still be acting");
        }
        return standing.with("waiting", held.epoch(), held.record().holder(), null, "held by " + describe(held));
    }

    private void takeWhenDue(long inNanos) {
        Clock.Timer previous = due;
        due = clock.timer("leasehold-lease-take", Duration.ofNanos(inNanos), () -> steps.submit(this::step));
        if (previous != null) {
            previous.close();
        }
    }

    /** {@code over}: the vacancy or the abandoned holding the update replaces; null to create. */
    private void take(LeaseState current, LeaseStore.Versioned seen) {
        // Whoever this replaces was seen unrenewed for a full duration (or gave it back): act under nothing now,
        // and nothing under a borrowed epoch runs on past this instance's first act under its own.
        endBorrowing("this instance takes the lease");
        standing = standing.with("waiting", 0, null, null, "taking the lease");
        long sentAt = clock.monotonicNanos();
        LeaseStore.Versioned over = seen;
        boolean resetChecked = false;
        long revision;
        try {
            StoreResets.Moved moved = resets.moveIfBehind(candidateBound());
            if (moved.waiting() != null) {
                standing = standing.with("waiting", 0, null, null, moved.waiting());
                return;
            }
            Standing.Reset reset = moved.reset();
            if (reset != null) {
                events.storeReset(reset);
                standing = standing.withReset(reset);
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
                standing = standing.with("waiting", 0, null, null, "the lease store has no lease though epochs were"
                        + " issued (it was reset): waiting until its reset mark was seen unchanged for a full "
                        + timing.duration() + " before taking, as an earlier holder may still be acting");
                return;
            }
            LeaseRecord record = new LeaseRecord(me, 0, clock.now(), clock.now());
            // Epoch 0 in the value means "the revision of this very write": the first renewal writes it out.
            long at = over == null ? 0 : over.revision();
            takeUnanswered = true;
            revision = over == null ? calls.call(() -> store.create(record), candidateBound())
                    : calls.call(() -> store.update(record, at), candidateBound());
            takeUnanswered = false;
            ownWrite(revision, revision);
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
        if (!state.compareAndSet(current, held)) {
            return; // released meanwhile: the release, queued after this step, gives it back
        }
        standing = standing.with("held", revision, me, takenAt, "held by this instance");
        events.took(revision, over == null || over.record().vacant() ? null : over);
        armDeadline(held); // last: a take born past its deadline is lost at once, and says so
    }

    private void adopt(LeaseState current, LeaseStore.Versioned mine) {
        endBorrowing("this instance holds the lease: an earlier take of it had landed");
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
        ownWrite(revision, epoch);
        LeaseState held = LeaseState.held(epoch, revision, sentAt, taken);
        if (!state.compareAndSet(current, held)) {
            if (state.get().is(LeaseState.Mode.RELEASED)) {
                ownWrite(revision, epoch); // the release queued after this step gives it back
            }
            return;
        }
        standing = standing.with("held", epoch, me, record.renewedAt(), "held by this instance");
        events.adopted(epoch);
        armDeadline(held);
    }

    private void renew(LeaseState held) {
        long deadlineAt = held.sentAtNanos() + timing.renewDeadline().toNanos();
        long sentAt = clock.monotonicNanos();
        if (sentAt >= deadlineAt - BoundedCalls.SHORTEST.toNanos()) {
            expire(held);
            return;
        }
        LeaseRecord record = new LeaseRecord(me, held.epoch(), held.takenAt(), clock.now());
        try {
            long revision = calls.call(() -> store.update(record, held.revision()), Duration.ofNanos(deadlineAt - sentAt));
            LeaseState renewed = held.renewed(revision, sentAt);
            firstUnansweredSentAt = 0;
            if (state.compareAndSet(held, renewed)) {
                ownWrite(revision, held.epoch());
                standing = standing.with("held", held.epoch(), me, record.renewedAt(), "held by this instance");
                armDeadline(renewed);
                recordRevision(revision);
            } else if (state.get().is(LeaseState.Mode.RELEASED)) {
                ownWrite(revision, held.epoch()); // the release queued after this step gives it back
            }
        } catch (LeaseStoreException e) {
            switch (e.kind()) {
                case INDETERMINATE -> {
                    if (firstUnansweredSentAt == 0) {
                        firstUnansweredSentAt = sentAt;
                    }
                    events.renewalUnanswered(held.epoch(), e.getMessage());
                    if (clock.monotonicNanos() >= deadlineAt) {
                        expire(held);
                    }
                }
                case CONFLICT -> recheckAfterConflict(held, deadlineAt);
                default -> lose(held, "the store refused the renewal: " + e.getMessage());
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
                expire(held);
            }
            return;
        }
        if (seen.isPresent() && seen.get().record().heldBy(me) && seen.get().epoch() == held.epoch()
                && seen.get().revision() > held.revision() && firstUnansweredSentAt != 0) {
            LeaseState landed = held.atRevision(seen.get().revision(), firstUnansweredSentAt);
            firstUnansweredSentAt = 0;
            if (state.compareAndSet(held, landed)) {
                ownWrite(seen.get().revision(), held.epoch()); // a renewal whose answer was lost had landed
                armDeadline(landed);
            } else if (state.get().is(LeaseState.Mode.RELEASED)) {
                ownWrite(seen.get().revision(), held.epoch()); // the release queued after this step gives it back
            }
            return;
        }
        lose(held, "another writer changed the lease: " + seen.map(this::describe).orElse("it was deleted"));
    }

    private void waitingOrUnleased(LeaseState current, LeaseStoreException e, String what, boolean mayServeUnleased) {
        String why = what + ": " + e.getMessage();
        if (e.kind() == LeaseStoreException.Kind.DENIED && (mayServeUnleased || current.is(LeaseState.Mode.UNLEASED))) {
            if (current.is(LeaseState.Mode.WAITING) && state.compareAndSet(current, LeaseState.UNLEASED)) {
                events.unleased(why);
            }
            if (state.get().is(LeaseState.Mode.UNLEASED)) {
                standing = standing.with("unleased", 0, null, null, why);
            }
            return;
        }
        standing = standing.with(current.is(LeaseState.Mode.UNLEASED) ? "unleased" : "waiting", 0, standing.holder(),
                null, why);
    }

    private void floorUnusable(IOException e) {
        // Without the floor on record a later epoch could go backwards: do not act.
        String why = "not taking the controller lease: the epoch floor in the spool is unusable: " + e.getMessage();
        standing = standing.with("waiting", 0, null, null, why);
        events.floorUnusable(why);
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

    private void ownWrite(long revision, long epoch) {
        ownEpoch = epoch;
        ownRevision = revision;
    }

    private void armDeadline(LeaseState held) {
        long in = held.sentAtNanos() + timing.renewDeadline().toNanos() - clock.monotonicNanos();
        Clock.Timer previous = deadline;
        deadline = clock.timer("leasehold-lease-deadline", Duration.ofNanos(Math.max(0, in)), () -> expire(held));
        if (previous != null) {
            previous.close();
        }
    }

    /** The deadline of {@code held} has come (on the timer, at the gate, or in a step), unless renewed since. */
    private void expire(LeaseState held) {
        lose(held, "no renewal succeeded within leasehold.lease.renew-deadline ("
                + DurationText.of(timing.renewDeadline()) + ")");
    }

    private void lose(LeaseState from, String why) {
        if (!state.compareAndSet(from, from.lost())) {
            return; // renewed, released or lost meanwhile
        }
        ownRevision = 0;
        closeTimers();
        closeBorrowing();
        standing = standing.with("lost", from.epoch(), standing.holder(), standing.renewedAt(), why);
        lostStanding = standing;
        long killAt = from.is(LeaseState.Mode.HELD) ? from.sentAtNanos() + timing.killAfter().toNanos()
                : clock.monotonicNanos();
        events.lost(new LeaseEvents.Loss(standing, killAt));
    }

    /**
     * Gives the lease back at a clean stop, so the next holder need not wait a full duration. Final: no
     * later step takes it again, and no act passes the gate. Waits for a step already running, within
     * a bound; a take of that step that lands afterwards is given back too.
     */
    public void release() {
        LeaseState was = state.getAndUpdate(now -> now.terminal() ? now : LeaseState.RELEASED);
        if (was.terminal()) {
            return;
        }
        closeTimers();
        closeBorrowing();
        standing = standing.with("waiting", 0, null, null, "released at shutdown");
        try {
            steps.submit(this::giveBack).get(RELEASE_LIMIT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            events.releaseFailed(ownEpoch, "the release did not finish within " + RELEASE_LIMIT + "; it expires"
                    + " after " + timing.duration());
        }
    }

    private void giveBack() {
        if (ownRevision == 0 && takeUnanswered) {
            findUnansweredTake();
        }
        long revision = ownRevision;
        if (revision == 0) {
            return;
        }
        long epoch = ownEpoch;
        try {
            calls.call(() -> store.update(LeaseRecord.released(me, epoch, clock.now()), revision), RELEASE_LIMIT);
            ownRevision = 0;
            events.released(epoch);
        } catch (LeaseStoreException e) {
            events.releaseFailed(epoch, e.getMessage() + "; it expires after " + timing.duration());
        }
    }

    /** A take whose answer was lost may have landed: if the key names this process, it is given back. */
    private void findUnansweredTake() {
        try {
            calls.call(store::read, RELEASE_LIMIT).filter(seen -> seen.record().heldBy(me))
                    .ifPresent(mine -> ownWrite(mine.revision(), mine.epoch()));
        } catch (LeaseStoreException e) {
            events.releaseFailed(0, "whether an unanswered take had landed cannot be read: " + e.getMessage());
        }
    }

    private void closeBorrowing() {
        Borrowing lent = borrowing;
        if (lent != null) {
            lent.close();
        }
    }

    private void closeTimers() {
        for (Clock.Timer timer : new Clock.Timer[] {deadline, due}) {
            if (timer != null) {
                timer.close();
            }
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

    private String describe(LeaseStore.Versioned versioned) {
        Holder h = versioned.record().holder();
        return h.instance() + " on " + h.host() + " at epoch " + versioned.epoch();
    }
}
