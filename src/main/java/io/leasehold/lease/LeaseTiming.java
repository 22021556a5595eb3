package io.leasehold.lease;

import java.time.Duration;

/**
 * The controller lease's three durations, checked once here: {@code duration > renewDeadline >
 * renewEvery > 0}. The holder gives up after {@code renewDeadline} without a successful renewal,
 * while a candidate waits a full {@code duration} of seeing the lease unchanged before it takes
 * over, so the old holder has stopped acting before anyone else may start.
 */
public record LeaseTiming(Duration duration, Duration renewEvery, Duration renewDeadline) {

    public LeaseTiming {
        if (renewEvery.isNegative() || renewEvery.isZero()) {
            throw new IllegalArgumentException("leasehold.lease.renew-every must be positive, got " + renewEvery);
        }
        if (renewDeadline.compareTo(renewEvery) <= 0) {
            throw new IllegalArgumentException("leasehold.lease.renew-deadline (" + renewDeadline
                    + ") must be longer than leasehold.lease.renew-every (" + renewEvery + ")");
        }
        if (duration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("leasehold.lease.duration (" + duration
                    + ") must be longer than leasehold.lease.renew-deadline (" + renewDeadline + ")");
        }
    }
}
