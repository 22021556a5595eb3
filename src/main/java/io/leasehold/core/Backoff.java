package io.leasehold.core;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter: the delay after attempt {@code n} is drawn from
 * [half, whole] of {@code min(max, initial * 2^(n-1))}, so instances that failed together do not
 * come back together.
 */
public record Backoff(Duration initial, Duration max) {

    /** The one place these rules live; the start-up check reports them by their keys. */
    public Backoff {
        if (initial.isNegative() || initial.isZero()) {
            throw new InvalidSetting("leasehold.drain.backoff-initial", "must be positive, got " + DurationText.of(initial));
        }
        if (max.compareTo(initial) < 0) {
            throw new InvalidSetting("leasehold.drain.backoff-max", "(" + DurationText.of(max)
                    + ") must not be below leasehold.drain.backoff-initial (" + DurationText.of(initial) + ")");
        }
    }

    /** @param unitRandom a source of values in [0, 1) */
    public Duration after(int attempt, DoubleSupplier unitRandom) {
        long initialMs = initial.toMillis();
        int doublings = Math.max(0, Math.min(attempt - 1, 40));
        long ceiling = max.toMillis();
        long whole = initialMs > (ceiling >> doublings) ? ceiling : Math.min(ceiling, initialMs << doublings);
        long half = whole / 2;
        return Duration.ofMillis(half + (long) ((whole - half) * unitRandom.getAsDouble()));
    }
}
