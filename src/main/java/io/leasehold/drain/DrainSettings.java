package io.leasehold.drain;

import io.leasehold.core.Backoff;
import io.leasehold.core.DurationText;
import io.leasehold.core.InvalidSetting;
import io.leasehold.core.TakeoverRule;
import java.time.Duration;

/**
 * How one instance drains, validated once here.
 *
 * @param handlerTimeout zero for none
 * @param takeover what lets this instance take over another's claim
 */
public record DrainSettings(int concurrency, int maxAttempts, Duration pollInterval, Duration handlerTimeout,
        Backoff backoff, Duration shutdownTimeout, TakeoverRule takeover) {

    /** The one place these rules live; the start-up check reports them by their keys. */
    public DrainSettings {
        if (concurrency < 1) {
            throw new InvalidSetting("leasehold.drain.concurrency", "must be at least 1, got " + concurrency);
        }
        if (maxAttempts < 1) {
            throw new InvalidSetting("leasehold.drain.max-attempts", "must be at least 1, got " + maxAttempts);
        }
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new InvalidSetting("leasehold.drain.poll-interval", "must be positive, got "
                    + DurationText.of(pollInterval));
        }
        if (handlerTimeout.isNegative() || (!handlerTimeout.isZero() && handlerTimeout.toMillis() < 1)) {
            // The clock's timers count milliseconds: a shorter timeout would never fire as set.
            throw new InvalidSetting("leasehold.handler.timeout", "must be 0 (none) or at least 1ms, got "
                    + DurationText.of(handlerTimeout));
        }
        if (takeover == null) {
            throw new IllegalArgumentException("a takeover rule is needed");
        }
        if (shutdownTimeout.isNegative()) {
            throw new InvalidSetting("leasehold.drain.shutdown-timeout", "must not be negative, got "
                    + DurationText.of(shutdownTimeout));
        }
    }
}
