package io.leasehold.lease;

import java.time.Duration;
import java.time.Instant;

/**
 * The epoch floor of a lease whose recorded floor may not outlive the bus's data (a JetStream spool on
 * instances without a volume, as on Knative): a lease store found new, at revision 0, is moved past this
 * instance's wall clock read in microseconds since the Unix epoch, after waiting {@code maxSkew}.
 *
 * <p>Why that is enough, while clocks agree within {@code maxSkew}: a store so moved issues one revision
 * per write, far fewer than a million a second, so every revision it ever issues stays below its maker's
 * clock in microseconds. Whoever finds it wiped reads its own clock at least {@code maxSkew} after the
 * wipe, when that clock is past the maker's at the wipe. The full argument, and what a clock further
 * off does, is in docs/lease.md.
 */
public record WallClockFloor(Duration maxSkew) {

    public static final long PER_SECOND = 1_000_000L;

    public WallClockFloor {
        if (maxSkew.isNegative()) {
            throw new IllegalArgumentException("max-skew is never negative: " + maxSkew);
        }
    }

    /** The clock's reading in microseconds since the Unix epoch; at least 1, so a clock before 1970 still marks. */
    public long at(Instant now) {
        long micros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), PER_SECOND), now.getNano() / 1_000);
        return Math.max(1, micros);
    }
}
