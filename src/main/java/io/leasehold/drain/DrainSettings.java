package io.leasehold.drain;

import io.leasehold.core.Backoff;
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

    public DrainSettings {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
        }
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("poll interval must be positive, got " + pollInterval);
        }
        if (handlerTimeout.isNegative()) {
            throw new IllegalArgumentException("handler timeout must not be negative, got " + handlerTimeout);
        }
        if (takeover == null) {
            throw new IllegalArgumentException("a takeover rule is needed");
        }
        if (shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("shutdown timeout must not be negative, got " + shutdownTimeout);
        }
    }
}
