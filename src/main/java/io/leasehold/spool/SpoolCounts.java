package io.leasehold.spool;

/** How many items each folder holds, and how long the oldest pending one has waited. */
public record SpoolCounts(long pending, long claimed, long done, long failed, long oldestPendingAgeMs) {
}
