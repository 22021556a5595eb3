package io.leasehold.drain;

/**
 * What one drain pass did, and whether it ended because the spool was idle or the budget ran out; a pass
 * while the drain is paused for the fleet starts nothing and says {@code paused}.
 */
public record DrainReport(long claimed, long tookOver, long done, long failed, long retried, long lost,
        long handedBack, boolean idle, boolean paused, long budgetMs) {
}
