package io.leasehold.core;

import java.time.Instant;
import java.util.Optional;

/**
 * The file name of a claim, {@code <id>~<generation>~<reading>}: the whole claim protocol.
 * The reading is the clock reading at which the current lease started.
 */
public record ClaimName(String id, Generation generation, Instant reading) {

    public static final char SEPARATOR = '~';

    public ClaimName {
        ItemId.require(id);
        // The name keeps milliseconds; so does the value, so a name parsed back equals the one written.
        reading = reading.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    public static Optional<ClaimName> parse(String fileName) {
        int first = fileName.indexOf(SEPARATOR);
        int second = first < 0 ? -1 : fileName.indexOf(SEPARATOR, first + 1);
        if (second < 0 || fileName.indexOf(SEPARATOR, second + 1) >= 0) {
            return Optional.empty();
        }
        String id = fileName.substring(0, first);
        if (!ItemId.isValid(id)) {
            return Optional.empty();
        }
        Optional<Generation> generation = Generation.parse(fileName.substring(first + 1, second));
        Optional<Instant> reading = Reading.parse(fileName.substring(second + 1));
        if (generation.isEmpty() || reading.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ClaimName(id, generation.get(), reading.get()));
    }

    /** The prefix every name of this claim starts with, whatever its reading. */
    public static String prefix(String id, Generation generation) {
        return id + SEPARATOR + generation + SEPARATOR;
    }

    public String fileName() {
        return prefix(id, generation) + Reading.format(reading);
    }

    public ClaimName renewedAt(Instant newReading) {
        return new ClaimName(id, generation, newReading);
    }

    public boolean sameClaimAs(ClaimName other) {
        return id.equals(other.id) && generation.equals(other.generation);
    }

    @Override
    public String toString() {
        return fileName();
    }
}
