package io.leasehold.spool;


import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one claim of an item recorded about its attempt, kept in {@code attempts/<id>/<generation>}
 * (the directory backend's text format) or in the item's ledger entry.
 *
 * @param abandoned how many of the item's attempts, up to this claim, were abandoned by a holder that stopped
 * @param text why the attempt did not succeed (exit status and stderr tail, "cancelled", ...), or the last such reason
 * @param history the item's latest attempts, oldest first, at most {@link PastAttempt#MAX_KEPT}: each claim
 *     carries over the history of the claim before it and adds its own attempt when it ends
 */
public record AttemptRecord(Kind kind, int abandoned, String text, List<PastAttempt> history) {

    /** Longest text kept: bookkeeping is read with a bound, and a record must fit it. */
    static final int MAX_TEXT = 8 * 1024;

    public AttemptRecord {
        if (abandoned < 0) {
            throw new IllegalArgumentException("abandoned counts from 0, got " + abandoned);
        }
        text = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "…" : text;
        history = history == null ? List.of() : List.copyOf(history.size() <= PastAttempt.MAX_KEPT ? history
                : history.subList(history.size() - PastAttempt.MAX_KEPT, history.size()));
    }

    public AttemptRecord(Kind kind, int abandoned, String text) {
        this(kind, abandoned, text, List.of());
    }

    /** What the claim did, which tells the next claim what to make of it. */
    public enum Kind {
        /** Carried over from earlier claims (the abandoned count, the last reason); nothing decided yet. */
        NOTE,
        /** Parked for a retry: whoever takes the claim over counts the next attempt, not an abandonment. */
        RETRY,
        /** Settles in failed with this text; a takeover finishes that when the holder stopped half-way. */
        FAILED,
        /** Went back to pending: the next claim goes on at the same attempt. */
        HANDED_BACK,
        /**
         * Parked by its enqueue until its scheduled time: whoever takes the claim makes the first attempt,
         * at the same attempt number, and counts no abandonment.
         */
        SCHEDULED,
        /** Settled in done: kept for the item's history only. */
        DONE;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Optional<Kind> parse(String label) {
            for (Kind k : values()) {
                if (k.label().equals(label)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    /** Whether the claim that wrote this record is parked (a retry's backoff, a schedule): nobody runs it. */
    public boolean parks() {
        return kind == Kind.RETRY || kind == Kind.SCHEDULED;
    }

    public static AttemptRecord note(int abandoned, String text) {
        return new AttemptRecord(Kind.NOTE, abandoned, text);
    }

    public AttemptRecord as(Kind newKind) {
        return new AttemptRecord(newKind, abandoned, text, history);
    }

    /** This record with the same history, for a new kind and text (what a claim writes over its own note). */
    public AttemptRecord then(Kind newKind, String newText) {
        return new AttemptRecord(newKind, abandoned, newText, history);
    }

    /** This record with {@code attempt} added at the end of its history (the oldest dropped past the bound). */
    public AttemptRecord adding(PastAttempt attempt) {
        List<PastAttempt> more = new ArrayList<>(history);
        more.add(attempt);
        return new AttemptRecord(kind, abandoned, text, more);
    }

    /** The history of {@code carried}, or none. */
    public static List<PastAttempt> historyOf(Optional<AttemptRecord> carried) {
        return carried.map(AttemptRecord::history).orElse(List.of());
    }
}
