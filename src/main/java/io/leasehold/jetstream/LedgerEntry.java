package io.leasehold.jetstream;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.PastAttempt;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One item's value in the ledger. Every move writes a whole new entry at the revision it read, so the
 * entry alone says where the item is: its state, the one it left ({@code was}, which lets a watcher keep
 * counts without a map of every key), and for a claim its generation, holder and lease reading.
 *
 * @param attempt for a pending item, the attempt its next claim goes on at; for a claim, its own
 * @param generation the claim's, {@code <attempt>-<nonce>}; null unless claimed
 * @param reading when the claim's current lease began, on the holder's clock; null unless claimed
 * @param payload the name of the item's payload in the object store: one of its own per enqueue, so two
 *     enqueues racing for one id never write over each other's payload; null when it is inline
 * @param inline a small payload kept in the entry itself, base64: the enqueue is then one create, and the
 *     claim reads no object (see {@link #INLINE_MAX}); null when the payload is an object
 * @param records what each generation recorded of its attempt, by generation
 * @param token fresh for every write: a writer told its write was refused (or told nothing) reads the
 *     entry again, and only its own token says the write landed after all
 */
record LedgerEntry(String state, String was, int attempt, String generation, String holder, Instant reading,
        Instant enqueuedAt, Instant settledAt, String payload, String inline, Map<String, AttemptRecord> records,
        String token) {

    static final String PENDING = ItemState.PENDING.label();
    static final String CLAIMED = ItemState.CLAIMED.label();
    /**
     * Part of a batch not committed yet: its id is known (a second enqueue is refused) but the item is
     * not there for anyone else (not listed, not claimable, 404); {@code holder} names the batch.
     */
    static final String STAGED = "staged";
    /**
     * The largest payload kept inline: every move rewrites the whole entry, so a larger one would be
     * written again at every claim, renewal and settlement (and a message holds 1 MiB at most).
     */
    static final int INLINE_MAX = 16 * 1024;

    LedgerEntry {
        records = records == null ? Map.of() : Map.copyOf(records);
    }

    private static String freshToken() {
        return Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    }

    static LedgerEntry enqueued(Instant at, String payload) {
        return new LedgerEntry(PENDING, null, 1, null, null, null, at, null, payload, null, Map.of(), freshToken());
    }

    /** The inline payload's bytes; empty when the payload is an object. */
    Optional<byte[]> inlinePayload() {
        return inline == null ? Optional.empty() : Optional.of(Base64.getDecoder().decode(inline));
    }

    /** This entry without its inline payload, for the picture in memory: never the base of a write. */
    LedgerEntry withoutInline() {
        return inline == null ? this : new LedgerEntry(state, was, attempt, generation, holder, reading, enqueuedAt,
                settledAt, payload, null, records, token);
    }

    boolean pending() {
        return PENDING.equals(state);
    }

    boolean staged() {
        return STAGED.equals(state);
    }

    /** An item of batch {@code batch}, staged at {@code at}, its payload stored already. */
    static LedgerEntry staged(String batch, Instant at, String payload) {
        return new LedgerEntry(STAGED, null, 1, null, batch, null, at, null, payload, null, Map.of(), freshToken());
    }

    /** An item of batch {@code batch}, staged at {@code at}, its payload (at most {@link #INLINE_MAX} bytes) inline. */
    static LedgerEntry stagedInline(String batch, Instant at, byte[] bytes) {
        return new LedgerEntry(STAGED, null, 1, null, batch, null, at, null, null, inline(bytes), Map.of(), freshToken());
    }

    private static String inline(byte[] bytes) {
        if (bytes.length > INLINE_MAX) {
            throw new IllegalArgumentException("an inline payload is at most " + INLINE_MAX + " bytes");
        }
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * A staged item made claimable with its payload kept in the entry (at most {@link #INLINE_MAX} bytes):
     * the object name it had reserved is not used.
     */
    LedgerEntry committedInline(byte[] bytes) {
        return new LedgerEntry(PENDING, null, 1, null, null, null, enqueuedAt, null, null, inline(bytes), Map.of(),
                freshToken());
    }

    /** A staged item made claimable by its batch's commit. */
    LedgerEntry committed() {
        return new LedgerEntry(PENDING, null, 1, null, null, null, enqueuedAt, null, payload, inline, Map.of(), freshToken());
    }

    /**
     * A reservation whose payload is in place made a claim parked until its scheduled time, which
     * {@code parked}'s reading says: held by nobody, its record says it waits for its first attempt.
     */
    LedgerEntry scheduledAs(ClaimName parked) {
        String generation = parked.generation().toString();
        return new LedgerEntry(CLAIMED, STAGED, parked.generation().attempt(), generation, null, parked.reading(),
                enqueuedAt, null, payload, inline,
                Map.of(generation, new AttemptRecord(AttemptRecord.Kind.SCHEDULED, 0, "")), freshToken());
    }

    /** Whether this entry is the claim {@code name}, at that very reading. */
    boolean is(ClaimName name) {
        return CLAIMED.equals(state) && name.generation().toString().equals(generation)
                && name.reading().equals(reading);
    }

    /** Whether this entry is a claim of {@code generation}, whatever its reading. */
    boolean isClaimOf(Generation of) {
        return CLAIMED.equals(state) && of.toString().equals(generation);
    }

    /** This claim's name; empty when the entry holds no well-formed generation or reading (written by someone else). */
    Optional<ClaimName> claimNameIfWellFormed(String id) {
        return reading == null ? Optional.empty() : Generation.parse(generation == null ? "" : generation)
                .map(g -> new ClaimName(id, g, reading));
    }

    /**
     * A claim of this entry: a renewal, takeover or park keeps the records; a claim of a pending item
     * carries over what the claim before it recorded (the counts, the history) as its own note, as a
     * claim of a directory spool does, and nothing else.
     */
    LedgerEntry claimed(ClaimName claim, String by) {
        Map<String, AttemptRecord> kept = records;
        if (pending()) {
            kept = latestRecord().map(r -> Map.of(claim.generation().toString(), r.as(AttemptRecord.Kind.NOTE)))
                    .orElse(Map.of());
        }
        return new LedgerEntry(CLAIMED, state, claim.generation().attempt(), claim.generation().toString(), by,
                claim.reading(), enqueuedAt, null, payload, inline, kept, freshToken());
    }

    LedgerEntry settled(ItemState where, Instant at) {
        return new LedgerEntry(where.label(), state, attempt, generation, holder, reading, enqueuedAt, at, payload,
                inline, records, freshToken());
    }

    /**
     * Settled in done: the claim's own record, if it kept a history, with {@code last} added; no other. Its
     * kind stays (nothing reads it again): an older build sharing the ledger reads no kind it does not know.
     */
    LedgerEntry settledDone(Instant at, PastAttempt last) {
        AttemptRecord own = generation == null ? null : records.get(generation);
        Map<String, AttemptRecord> kept = own == null ? Map.of() : Map.of(generation, own.adding(last));
        return new LedgerEntry(ItemState.DONE.label(), state, attempt, generation, holder, reading, enqueuedAt, at,
                payload, inline, kept, freshToken());
    }

    /**
     * A failed item back to pending: its attempts counted afresh (the next claim goes on at attempt 1
     * with nothing abandoned), only its history carried over to the next claim.
     */
    LedgerEntry retried() {
        Map<String, AttemptRecord> carried = latestRecord().filter(r -> !r.history().isEmpty())
                .map(r -> Map.of(generation == null ? "1-retried" : generation, new AttemptRecord(
                        AttemptRecord.Kind.HANDED_BACK, 0, "", r.history())))
                .orElse(Map.of());
        return new LedgerEntry(PENDING, state, 1, null, null, null, enqueuedAt, null, payload, inline, carried,
                freshToken());
    }

    /** The reason a failed item failed: its last claim's record. */
    String reason() {
        AttemptRecord last = generation == null ? null : records.get(generation);
        return last == null ? null : last.text();
    }

    /** The record of the latest claim: its own when it has one, else the highest attempt's (a handed-back item's). */
    Optional<AttemptRecord> latestRecord() {
        AttemptRecord own = generation == null ? null : records.get(generation);
        if (own != null) {
            return Optional.of(own);
        }
        return records.entrySet().stream().max(Comparator.comparingInt(
                (Map.Entry<String, AttemptRecord> e) -> Generation.parse(e.getKey()).map(Generation::attempt).orElse(0))
                .thenComparing(Map.Entry::getKey)).map(Map.Entry::getValue);
    }

    /** Back to pending: the next claim goes on at the same attempt. */
    LedgerEntry handedBack() {
        return new LedgerEntry(PENDING, state, attempt, null, null, null, enqueuedAt, null, payload, inline,
                records, freshToken());
    }

    LedgerEntry withRecord(Generation of, AttemptRecord record) {
        Map<String, AttemptRecord> more = new LinkedHashMap<>(records);
        more.put(of.toString(), record);
        // Not a move: was = state, so a watcher keeping counts by (was, state) sees no change.
        return new LedgerEntry(state, state, attempt, generation, holder, reading, enqueuedAt, settledAt, payload,
                inline, more, freshToken());
    }

    LedgerEntry onlyRecordOf(Generation kept) {
        AttemptRecord mine = records.get(kept.toString());
        return new LedgerEntry(state, state, attempt, generation, holder, reading, enqueuedAt, settledAt, payload,
                inline, mine == null ? Map.of() : Map.of(kept.toString(), mine), freshToken());
    }
}
