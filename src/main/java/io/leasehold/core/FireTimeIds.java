package io.leasehold.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A schedule's name, and the ids of the items it makes: {@code <name>.<fire time>} for a fire time (one id
 * per fire time, so a second item for it is refused as any known id is) and {@code <name>.manual-<instant>}
 * for a trigger by hand. A name has no dot, so an id's last dot parts it from its time.
 */
public final class FireTimeIds {

    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final Pattern ID = Pattern.compile("(" + NAME.pattern() + ")\\.(manual-)?(\\d{8}T\\d{6}(?:\\.\\d{3})?Z)");

    private FireTimeIds() {
    }

    public static boolean isName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** The item of {@code name}'s fire time {@code fireTime} (a whole second). */
    public static String of(String name, Instant fireTime) {
        return name + "." + SECONDS.format(fireTime);
    }

    /** The item of a trigger by hand at {@code at}, to the millisecond. */
    public static String manual(String name, Instant at) {
        return name + ".manual-" + MILLIS.format(at);
    }

    /** A fire time as ids and spool names write it: {@code 20261205T020000Z}. */
    public static String compact(Instant fireTime) {
        return SECONDS.format(fireTime);
    }

    /** The instant {@link #compact} wrote; empty for anything else. */
    public static Optional<Instant> parseCompact(String text) {
        try {
            return Optional.of(Instant.from(SECONDS.parse(text)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * The time an item of a schedule fires for: its fire time, or the instant of a trigger by hand; empty for
     * an id of any other shape. What handlers are given as the fire time.
     */
    public static Optional<Instant> fireTimeOf(String id) {
        Matcher m = ID.matcher(id);
        if (!m.matches()) {
            return Optional.empty();
        }
        boolean manual = m.group(2) != null;
        boolean millis = m.group(3).contains(".");
        if (manual != millis) {
            return Optional.empty(); // a fire time is whole seconds, a trigger by hand to the millisecond
        }
        try {
            return Optional.of(Instant.from((millis ? MILLIS : SECONDS).parse(m.group(3))));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
