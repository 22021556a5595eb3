package io.leasehold.lease;

import java.time.Instant;

/**
 * The value kept at {@code <bucket>/<key>}. The times are the holder's own readings, for people and
 * logs only: no instance ever decides anything from another machine's clock.
 */
public record LeaseRecord(Holder holder, long epoch, Instant takenAt, Instant renewedAt) {

    public LeaseRecord renewedAt(Instant now) {
        return new LeaseRecord(holder, epoch, takenAt, now);
    }
}
