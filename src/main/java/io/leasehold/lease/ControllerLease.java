package io.leasehold.lease;

import io.leasehold.core.Clock;
import io.leasehold.core.DurationText;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
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
    private final Clock clock;
    private final LeaseTiming timing;
    private final Holder me;
    private final BoundedCalls calls;
    private final SerialSteps steps;
    private final LeaseEvents events;
    private final Candidate candidate;
    private final Holding holding;
    final AtomicReference<LeaseState> state = new AtomicReference<>(LeaseState.WAITING);

    /** What {@link #standing} says; written by the step (the candidate's and the holder's too). */
    volatile Standing standing = new Standing("waiting", 0, null, null, "the lease has not been tried yet", null);
    /** The revision of this process's last write as holder, while the key may still show it; 0 for none. */
    private volatile long ownRevision;
    private volatile long ownEpoch;
    private volatile Clock.Timer deadline;
    private volatile Clock.Timer due;
    /** What a waiting instance acts under beside the holder ({@code claims} mode); null: nothing while waiting. */
    private volatile Borrowing borrowing;
    /** A take whose answer was lost may have landed: a release looks for it. */
    volatile boolean takeUnanswered;
    /** What standing() says once lost, whatever a step still finishing writes. */
    private volatile Standing lostStanding;

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
        this.steps = new SerialSteps(steps);
        this.events = events;
        LeaseSide.Parts parts = new LeaseSide.Parts(store, new StoreResets(store, floor, this.calls, clock, me, wall),
                clock, timing, me, this.calls, calls, events);
        this.candidate = new Candidate(this, parts);
        this.holding = new Holding(this, parts);
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
            case HELD -> holding.step(now);
            case WAITING, UNLEASED -> candidate.step(now);
            default -> { } // lost or released: final, nothing to step
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
    void endBorrowing(String why) {
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

    void takeWhenDue(long inNanos) {
        Clock.Timer previous = due;
        due = clock.timer("leasehold-lease-take", Duration.ofNanos(inNanos), () -> steps.submit(this::step));
        if (previous != null) {
            previous.close();
        }
    }

    void ownWrite(long revision, long epoch) {
        ownEpoch = epoch;
        ownRevision = revision;
    }

    void armDeadline(LeaseState held) {
        long in = held.sentAtNanos() + timing.renewDeadline().toNanos() - clock.monotonicNanos();
        Clock.Timer previous = deadline;
        deadline = clock.timer("leasehold-lease-deadline", Duration.ofNanos(Math.max(0, in)), () -> expire(held));
        if (previous != null) {
            previous.close();
        }
    }

    /** The deadline of {@code held} has come (on the timer, at the gate, or in a step), unless renewed since. */
    void expire(LeaseState held) {
        lose(held, "no renewal succeeded within leasehold.lease.renew-deadline ("
                + DurationText.of(timing.renewDeadline()) + ")");
    }

    void lose(LeaseState from, String why) {
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
}
