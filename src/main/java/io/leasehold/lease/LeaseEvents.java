package io.leasehold.lease;

/**
 * What the lease tells the rest of the process: the log, and whoever must stop acting at a loss.
 * Called on the lease's own threads (steps and the deadline timer): an implementation returns quickly.
 */
public interface LeaseEvents {

    /** Taken: fresh ({@code from} null), or over from a holder seen unrenewed for a full duration. */
    void took(long epoch, LeaseStore.Versioned from);

    /** A take of this process whose answer was lost had landed, and was renewed. */
    void adopted(long epoch);

    /** The store was found behind the epoch floor, or empty though epochs were issued. */
    void storeReset(Standing.Reset reset);

    /** The store refuses this user and nobody holds the lease: acting under epoch 0 from now on. */
    void unleased(String why);

    /** A renewal did not answer in time; the deadline may still be met by the next one. */
    void renewalUnanswered(long epoch, String why);

    /** The epoch floor cannot be read or raised: the lease is not taken (epochs could go backwards), or a renewal not recorded. */
    void floorUnusable(String why);

    /** Lost for good: stop every act now, KILL what still runs by {@link Loss#killAtNanos()}. */
    void lost(Loss loss);

    void released(long epoch);

    void releaseFailed(long epoch, String why);

    /**
     * @param standing the standing at the loss (mode lost, its epoch and reason)
     * @param killAtNanos on the monotonic clock: what still acts under the epoch must be dead by then
     */
    record Loss(Standing standing, long killAtNanos) {
    }
}
