package io.leasehold.wire;

import io.leasehold.core.ItemId;
import io.quarkus.runtime.configuration.DurationConverter;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Times and durations given in a query, parsed here so that a bad one is a 400 naming its parameter
 * (JAX-RS would answer an unparsable parameter with 404). Durations as the configuration takes them:
 * ISO-8601 ({@code PT30S}) or a number and a unit ({@code 90s}, {@code 12h}, {@code 7d}).
 */
public final class QueryTimes {

    /** Claim names keep four-digit years: nothing is scheduled past this. */
    private static final Instant LATEST = Instant.parse("9999-01-01T00:00:00Z");

    private QueryTimes() {
    }

    /** A duration of at least zero, or a 400 naming {@code parameter}. */
    public static Duration duration(String parameter, String text) {
        Duration d;
        try {
            d = DurationConverter.parseDuration(text.trim());
        } catch (RuntimeException e) {
            d = null;
        }
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(parameter + " must be a duration of at least zero, such as PT30S, "
                    + "30s, 12h or 7d, got '" + ItemId.printable(text) + "'");
        }
        return d;
    }

    /**
     * {@code span} before {@code now}, or the earliest instant when that is further back than an instant goes
     * (olderThan=99999999999999d): nothing was settled then, rather than an arithmetic error.
     */
    public static Instant ago(Instant now, Duration span) {
        return span.compareTo(Duration.between(Instant.MIN, now)) >= 0 ? Instant.MIN : now.minus(span);
    }

    /**
     * When an enqueued item may first run, from {@code notBefore} (an ISO-8601 instant) or {@code delay}
     * (from now), at most one of them; null when neither is given. A time already past is now.
     */
    public static Instant runAt(String notBefore, String delay, Instant now) {
        if (notBefore != null && delay != null) {
            throw new IllegalArgumentException("give notBefore or delay, not both");
        }
        Instant at = notBefore != null ? instant("notBefore", notBefore) : null;
        if (delay != null) {
            Duration by = duration("delay", delay);
            at = by.compareTo(Duration.between(now, LATEST)) >= 0 ? LATEST.plusSeconds(1) : now.plus(by);
        }
        if (at != null && at.isAfter(LATEST)) {
            throw new IllegalArgumentException((notBefore != null ? "notBefore" : "delay")
                    + " is too far ahead: an item can be scheduled up to " + LATEST);
        }
        return at;
    }

    private static Instant instant(String parameter, String text) {
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(text.trim()).toInstant();
            } catch (DateTimeException again) {
                throw new IllegalArgumentException(parameter + " must be an ISO-8601 instant such as "
                        + "2026-12-01T15:30:00Z, got '" + ItemId.printable(text) + "'");
            }
        }
    }
}
