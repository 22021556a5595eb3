package io.leasehold.spool;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * One attempt of an item as its history shows it; what nobody could know is null and left out (an
 * abandoned attempt's epoch and start, a hand-made record's holder).
 *
 * @param holder the tag of the instance that held the claim (see {@link io.leasehold.core.HolderTag})
 * @param epoch the controller lease's epoch the attempt worked under (0 without a lease)
 * @param outcome done, failed, retry, stale, abandoned (its holder stopped renewing) or cancelled
 * @param reason why it did not succeed, on one line and cut to {@link #MAX_REASON} characters
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PastAttempt(int attempt, String holder, Long epoch, Instant startedAt, Instant endedAt, String outcome,
        String reason) {

    /** A history keeps this many attempts, the latest: a record, and a ledger entry, stay small. */
    public static final int MAX_KEPT = 10;
    public static final int MAX_REASON = 200;

    public PastAttempt {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt counts from 1, got " + attempt);
        }
        if (outcome == null || !outcome.matches("[a-z-]{1,20}")) {
            throw new IllegalArgumentException("an outcome is one lower-case word, got " + outcome);
        }
        holder = holder == null || holder.isEmpty() ? null : holder;
        reason = reason == null || reason.isEmpty() ? null : oneLine(reason);
    }

    private static String oneLine(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() > MAX_REASON ? flat.substring(0, MAX_REASON) + "…" : flat;
    }
}
