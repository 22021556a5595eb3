package io.leasehold.lease;

/**
 * How long this candidate has seen the lease's entry unchanged, on its own monotonic clock: the
 * only evidence that a holder stopped renewing which does not trust another machine's clock. Whole
 * entries are compared (revision and value), as a revision alone can repeat after a wipe.
 */
final class Sighting {

    private long revision = -1;
    private LeaseRecord record;
    private long sinceNanos;

    /** Notes what was read at {@code nowNanos}; answers how long that same entry has been seen. */
    long unchangedFor(LeaseStore.Versioned seen, long nowNanos) {
        if (seen.revision() != revision || !seen.record().equals(record)) {
            revision = seen.revision();
            record = seen.record();
            sinceNanos = nowNanos;
        }
        return nowNanos - sinceNanos;
    }

    /** After a reset: whatever was seen before proves nothing about what is read next. */
    void forget() {
        revision = -1;
        record = null;
    }
}
