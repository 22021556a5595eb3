package io.leasehold.spool;

/**
 * How many items are in each state, and how long the oldest pending one has waited. A parked claim is not
 * counted as claimed: {@code scheduled} waits for its first run at a time given by its enqueue,
 * {@code retrying} for its next attempt after a backoff; {@code claimed} counts the claims someone holds.
 */
public record SpoolCounts(long pending, long claimed, long scheduled, long retrying, long done, long failed,
        long oldestPendingAgeMs) {

    /** No item at all. */
    public static final SpoolCounts NONE = new SpoolCounts(0, 0, 0, 0, 0, 0, 0);
}
