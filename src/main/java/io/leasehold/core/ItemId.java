package io.leasehold.core;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/** The grammar of an item id: what may name an item in every folder of the spool. */
public final class ItemId {

    /** Letters, digits, dot, underscore and dash; never '~' (the claim-name separator) or '/'. */
    private static final Pattern GRAMMAR = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private ItemId() {
    }

    public static boolean isValid(String candidate) {
        return candidate != null && GRAMMAR.matcher(candidate).matches();
    }

    /** Returns the id, or throws with a message a user can act on. */
    public static String require(String candidate) {
        if (candidate == null || candidate.isEmpty()) {
            throw new IllegalArgumentException("an item id is required");
        }
        if (!isValid(candidate)) {
            throw new IllegalArgumentException("invalid item id '" + printable(candidate)
                    + "': it must match [A-Za-z0-9][A-Za-z0-9._-]{0,127} (no '~', '/' or leading '.')");
        }
        return candidate;
    }

    /** A fresh id for an item posted without one: time-ordered, so listings read naturally. */
    public static String timeOrdered(Instant now) {
        return Reading.format(now).replace(".", "") + "-"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong() >>> 16, 36);
    }

    /** Keeps error messages and logs readable when a hostile name is echoed back. */
    public static String printable(String raw) {
        return escaped(raw.length() > 140 ? raw.substring(0, 140) + "…" : raw);
    }

    /**
     * {@code raw} with every control character (C0, DEL, C1) as {@code \xNN}: a terminal shown it obeys no
     * escape sequence in it (colours, titles, cursor moves) and breaks no line.
     */
    public static String escaped(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        raw.codePoints().forEach(c -> {
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                out.append(String.format("\\x%02x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
