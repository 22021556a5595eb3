package io.leasehold.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Fire times at the multiples of {@code period} since 1970-01-01T00:00:00Z, so every instance computes the
 * same ones whenever it started; a whole number of seconds, at least one, as an item id names its fire
 * time to the second.
 */
public record Every(Duration period) implements Recurrence {

    public Every {
        if (period.compareTo(Duration.ofSeconds(1)) < 0 || period.getNano() != 0) {
            throw new IllegalArgumentException("must be a whole number of seconds, at least 1s, got " + DurationText.of(period));
        }
    }

    /** As the constructor, its refusal naming {@code key}. */
    public static Every of(String key, Duration period) {
        try {
            return new Every(period);
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(key, e.getMessage());
        }
    }

    @Override
    public Optional<Instant> after(Instant t) {
        long p = period.getSeconds();
        long s = t.getEpochSecond();
        return Optional.of(Instant.ofEpochSecond(Math.floorDiv(s, p) * p + p)); // s's own multiple or later: after t
    }

    @Override
    public Optional<Instant> before(Instant t) {
        long p = period.getSeconds();
        long s = t.getEpochSecond();
        long at = Math.floorDiv(s, p) * p; // the multiple at or before t's second
        return Optional.of(Instant.ofEpochSecond(at < s || t.getNano() > 0 ? at : at - p));
    }
}
