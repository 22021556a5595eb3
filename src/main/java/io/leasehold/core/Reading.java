package io.leasehold.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * A clock reading as it is written in a claim's file name: UTC, millisecond precision,
 * {@code yyyyMMdd'T'HHmmss.SSS'Z'}. The name sorts in time order and carries no zone ambiguity.
 */
public final class Reading {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Reading() {
    }

    public static String format(Instant instant) {
        return FORMAT.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }

    public static Optional<Instant> parse(String text) {
        if (text.length() != 20) {
            return Optional.empty();
        }
        try {
            return Optional.of(FORMAT.parse(text, Instant::from));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
