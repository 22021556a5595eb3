package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The claim protocol's file operations. Every method is a few blocking looks and one atomic rename or
 * link; callers run them on worker threads. A method that answers {@code false} or empty found the file
 * gone: another instance got there first, which is an answer, not an error.
 */
public interface Spool {

    /** Names this instance in the nonce of every claim it makes, so a claim's holder is read from its name. */
    HolderTag holderTag();

    /** Up to {@code max} ids waiting in pending/, in no particular order, skipping known junk. */
    List<String> pendingBatch(int max) throws IOException;

    /**
     * pending/{id} → a new claim whose lease starts at {@code reading}, going on at the attempt the item
     * was handed back at (1 for a new item). Empty when the item is gone or is not claimable.
     */
    Optional<ClaimName> claim(String id, Instant reading) throws IOException;

    /** claimed/{from} → claimed/{to}: renew, take over, or park. False when {@code from} is gone. */
    boolean rename(ClaimName from, ClaimName to) throws IOException;

    /** The current name of the claim with this id and generation, whatever its reading. */
    Optional<ClaimName> find(String id, Generation generation) throws IOException;

    /** Every well-formed claim in claimed/; malformed names are reported and skipped. */
    List<ClaimName> claims() throws IOException;

    /**
     * The payload of a claim, read up to {@code leasehold.item.max-bytes}; throws
     * {@link java.nio.file.NoSuchFileException} when it is gone, and {@link UnfitFileException} when it
     * is larger than that ({@code OVERSIZED}) or not a plain file of the spool's own ({@code JUNK},
     * reported as an anomaly): neither is ever read into memory.
     */
    byte[] payload(ClaimName claim) throws IOException;

    /**
     * Whether the claim's file is junk (a symlink, a FIFO, a hard link to a name elsewhere ...), which is
     * reported and must never be taken over, read or moved; false when it is fit or gone.
     */
    boolean isJunk(ClaimName claim) throws IOException;

    /**
     * After a takeover's rename: false when the file also has a settled or pending name (a move left
     * half-done), which wins; the taken claim is then gone and nothing is worked on.
     */
    boolean keepTaken(ClaimName taken) throws IOException;

    /**
     * claimed/{claim} → done/{id} or failed/{id}, never replacing a file there. False when the claim is
     * gone; throws {@link ItemStore.DuplicateItemException} when the name holds another file.
     */
    boolean settle(ClaimName claim, ItemState where) throws IOException;

    /**
     * As {@link #settle} into done/, the attempt that succeeded added to the item's history when it keeps
     * one (an earlier attempt, a hand-back or a schedule left it a record); an item done at its first claim
     * keeps none, which costs the drain nothing.
     */
    boolean settleDone(ClaimName claim, PastAttempt attempt) throws IOException;

    /**
     * claimed/{claim} → pending/{id}; the next claim goes on at the same attempt. False when the claim is
     * gone; throws {@link ItemStore.DuplicateItemException} when pending/{id} holds another file.
     */
    boolean handBack(ClaimName claim) throws IOException;

    /** What the claim of this generation recorded about its attempt (an older spool's reason included). */
    Optional<AttemptRecord> record(String id, Generation generation) throws IOException;

    /** Records this generation's attempt; only the holder of the generation writes it. */
    void writeRecord(String id, Generation generation, AttemptRecord record) throws IOException;

    /** The claim has the item now: the records of the claims before it are of no more use. */
    void dropEarlierRecords(ClaimName claim) throws IOException;
}
