package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The drain's port: claims taken, renewed, taken over and settled, each move one atomic step of the backend
 * (a rename or link of a file, a compare-and-set of a key) that decides among instances. Every method blocks;
 * callers run them on worker threads. A method that answers {@code false} or empty found the item gone
 * from where it looked: another instance got there first, which is an answer, not an error.
 */
public interface Spool {

    /** Names this instance in the nonce of every claim it makes, so a claim's holder is read from its name. */
    HolderTag holderTag();

    /** Up to {@code max} ids of pending items, in no particular order, skipping known junk. */
    List<String> pendingBatch(int max) throws IOException;

    /**
     * A pending item → a new claim whose lease starts at {@code reading}, going on at the attempt the item
     * was handed back at (1 for a new item). Empty when the item is gone or is not claimable.
     */
    Optional<ClaimName> claim(String id, Instant reading) throws IOException;

    /**
     * The claim {@code from} goes on under {@code to}, of the same generation at a later reading: a renewal,
     * or a park until a retry's or a schedule's time. False when {@code from} is gone (taken over, settled).
     */
    boolean restamp(ClaimName from, ClaimName to) throws IOException;

    /** The current name of the claim with this id and generation, whatever its reading. */
    Optional<ClaimName> find(String id, Generation generation) throws IOException;

    /** Every well-formed claim, held or parked; malformed ones are reported and skipped. */
    List<ClaimName> claims() throws IOException;

    /**
     * The payload of a claim, read up to {@code leasehold.item.max-bytes}; empty when the claim is no longer
     * under this name (renewed, taken over, settled). Throws {@link UnfitFileException} when it is larger
     * than that ({@code OVERSIZED}) or not an item the spool can trust ({@code JUNK}, reported as an
     * anomaly): neither is ever read into memory.
     */
    Optional<byte[]> payload(ClaimName claim) throws IOException;

    /**
     * Takes over the claim {@code seen}, whose holder stopped renewing it, under a new generation whose lease
     * starts at {@code reading} ({@link #takerOf}): the claim this instance now holds. Empty when it is gone,
     * was renewed or taken first by another instance, is not a fit item (reported, and left under its name so
     * nobody takes it again and again; nothing else of it is read), or a move of it that stopped half-way is
     * finished instead (its settled or pending place wins).
     */
    Optional<ClaimName> takeOver(ClaimName seen, Instant reading) throws IOException;

    /**
     * The claim → done or failed, never replacing what is settled there under its id. False when the claim
     * is gone; throws {@link ItemStore.DuplicateItemException} when the id is settled there already.
     */
    boolean settle(ClaimName claim, ItemState where) throws IOException;

    /**
     * As {@link #settle} into done, the attempt that succeeded added to the item's history when it keeps
     * one (an earlier attempt, a hand-back or a schedule left it a record); an item done at its first claim
     * keeps none, which costs the drain nothing.
     */
    boolean settleDone(ClaimName claim, PastAttempt attempt) throws IOException;

    /**
     * The claim → pending; the next claim goes on at the same attempt. False when the claim is gone; throws
     * {@link ItemStore.DuplicateItemException} when another item is pending under its id.
     */
    boolean handBack(ClaimName claim) throws IOException;

    /** What the claim of this generation recorded about its attempt (an older spool's reason included). */
    Optional<AttemptRecord> record(String id, Generation generation) throws IOException;

    /** Records this generation's attempt; only the holder of the generation writes it. */
    void writeRecord(String id, Generation generation, AttemptRecord record) throws IOException;

    /** The claim has the item now: the records of the claims before it are of no more use. */
    void dropEarlierRecords(ClaimName claim) throws IOException;

    /** A restamp keeps the claim's generation: refused otherwise, before anything moves. */
    static void requireRestamp(ClaimName from, ClaimName to) {
        if (!from.generation().equals(to.generation())) {
            throw new IllegalArgumentException("a restamp keeps the claim's generation: " + from + " → " + to);
        }
    }

    /**
     * The name a taker of {@code seen} gives it: the next attempt, or, for a claim its enqueue parked until
     * its scheduled time ({@code record} says so), the first attempt at the same number, with no abandonment
     * counted. Its record is written before the claim exists and never again, so reading it before the move
     * cannot be overtaken by a holder (it has none).
     */
    static ClaimName takerOf(ClaimName seen, Optional<AttemptRecord> record, HolderTag tag, Instant reading) {
        boolean scheduled = record.map(AttemptRecord::kind).filter(k -> k == AttemptRecord.Kind.SCHEDULED).isPresent();
        Generation next = scheduled ? Generation.at(seen.generation().attempt(), tag) : seen.generation().next(tag);
        return new ClaimName(seen.id(), next, reading);
    }
}
