package io.leasehold.drain;

/** What one drain pass did, and whether it ended because the spool was idle or the budget ran out. */
public record DrainReport(long claimed, long tookOver, long done, long failed, long retried, long lost,
        long handedBack, boolean idle, long budgetMs) {
}
