package io.leasehold.spool;

import java.util.Locale;
import java.util.Optional;

/**
 * What one claim of an item recorded about its attempt, kept in {@code attempts/<id>/<generation>}.
 * The file starts with {@code v2 <kind> <abandoned>} on its first line; the text follows.
 *
 * @param abandoned how many of the item's attempts, up to this claim, were abandoned by a holder that stopped
 * @param text why the attempt did not succeed (exit status and stderr tail, "cancelled", ...), or the last such reason
 */
public record AttemptRecord(Kind kind, int abandoned, String text) {

    /** Longest text kept: bookkeeping is read with a bound, and a record must fit it. */
    static final int MAX_TEXT = 8 * 1024;
    private static final String VERSION = "v2";

    public AttemptRecord {
        if (abandoned < 0) {
            throw new IllegalArgumentException("abandoned counts from 0, got " + abandoned);
        }
        text = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "…" : text;
    }

    /** What the claim did, which tells the next claim what to make of it. */
    public enum Kind {
        /** Carried over from earlier claims (the abandoned count, the last reason); nothing decided yet. */
        NOTE,
        /** Parked for a retry: whoever takes the claim over counts the next attempt, not an abandonment. */
        RETRY,
        /** Settles in failed/ with this text; a takeover finishes that when the holder stopped half-way. */
        FAILED,
        /** Went back to pending/: the next claim goes on at the same attempt. */
        HANDED_BACK;

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Optional<Kind> parse(String label) {
            for (Kind k : values()) {
                if (k.label().equals(label)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    public static AttemptRecord note(int abandoned, String text) {
        return new AttemptRecord(Kind.NOTE, abandoned, text);
    }

    public AttemptRecord as(Kind newKind) {
        return new AttemptRecord(newKind, abandoned, text);
    }

    String format() {
        return VERSION + " " + kind.label() + " " + abandoned + "\n" + text;
    }

    /** Empty when {@code content} is not a record of this format (written by hand, or by another tool). */
    static Optional<AttemptRecord> parse(String content) {
        int newline = content.indexOf('\n');
        String[] header = (newline < 0 ? content : content.substring(0, newline)).split(" ");
        if (header.length != 3 || !header[0].equals(VERSION)) {
            return Optional.empty();
        }
        Optional<Kind> kind = Kind.parse(header[1]);
        try {
            int abandoned = Integer.parseInt(header[2]);
            String text = newline < 0 ? "" : content.substring(newline + 1);
            return kind.isEmpty() || abandoned < 0 ? Optional.empty()
                    : Optional.of(new AttemptRecord(kind.get(), abandoned, text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
