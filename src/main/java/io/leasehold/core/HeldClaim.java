package io.leasehold.core;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One claim this instance holds, as an explicit state machine shared by the worker and the renewal.
 *
 * <pre>
 *   HELD ──renewal or look finds the file gone──▶ LOST      (stop the work, settle nothing)
 *   HELD ──worker starts settling / handing back─▶ FINISHING (renewal leaves it alone)
 *   FINISHING ──the settlement failed (disk full)──▶ HELD (renewed again until a later try settles it)
 * </pre>
 *
 * <p>Only the renewal writes new names while the claim is HELD; the worker finds the file by id and
 * generation, which never change. Neither side waits for the other: the state is one atomic value.
 */
public final class HeldClaim {

    public enum State { HELD, LOST, FINISHING }

    private final String id;
    private final Generation generation;
    private volatile ClaimName current;
    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
    private final AtomicReference<Runnable> onLost = new AtomicReference<>();
    /** When the work on it began and under which epoch (null before the look), for the item's history. */
    private volatile Instant startedAt;
    private volatile Long epoch;

    public HeldClaim(ClaimName taken) {
        this.id = taken.id();
        this.generation = taken.generation();
        this.current = taken;
    }

    public String id() {
        return id;
    }

    public Generation generation() {
        return generation;
    }

    public int attempt() {
        return generation.attempt();
    }

    /** The work on the claim began at {@code at}; {@code underEpoch} is null when no handler was called. */
    public void began(Instant at, Long underEpoch) {
        startedAt = at;
        epoch = underEpoch;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Long epoch() {
        return epoch;
    }

    /** The name the renewal last wrote (it may be mid-rename to a newer one). */
    public ClaimName current() {
        return current;
    }

    public State state() {
        return state.get();
    }

    public boolean isHeld() {
        return state.get() == State.HELD;
    }

    /** Called by the renewal after its rename succeeded. */
    public void renamedTo(ClaimName renewed) {
        if (!renewed.sameClaimAs(current)) {
            throw new IllegalArgumentException(renewed + " is not a renewal of " + current);
        }
        current = renewed;
    }

    /** The claim was found taken over. Returns true the first time; runs the lost hook once. */
    public boolean markLost() {
        if (state.compareAndSet(State.HELD, State.LOST)) {
            Runnable hook = onLost.getAndSet(null);
            if (hook != null) {
                hook.run();
            }
            return true;
        }
        return false;
    }

    /** The worker takes the claim out of the renewal's hands; false when it was already lost. */
    public boolean beginFinishing() {
        return state.compareAndSet(State.HELD, State.FINISHING);
    }

    /**
     * The settlement could not be written: the claim is this holder's again, renewed as before, so a
     * holder alive to settle it never lets it expire. False when it was not finishing.
     */
    public boolean resumeHolding() {
        return state.compareAndSet(State.FINISHING, State.HELD);
    }

    /** What to do when the claim is lost, e.g. cancel the running handler. Runs at once if already lost. */
    public void onLost(Runnable hook) {
        onLost.set(hook);
        if (state.get() == State.LOST) {
            Runnable pending = onLost.getAndSet(null);
            if (pending != null) {
                pending.run();
            }
        }
    }

    @Override
    public String toString() {
        return current + " (" + state.get() + ")";
    }
}
