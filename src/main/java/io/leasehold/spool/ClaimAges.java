package io.leasehold.spool;

/**
 * How long the running claims of the spool have been held: the oldest one's age, and how many are older
 * than a bound. Parked claims (retrying, scheduled) run nothing and are not counted.
 */
public record ClaimAges(long oldestMs, long olderThanBound) {

    public static final ClaimAges NONE = new ClaimAges(0, 0);
}
