package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The claim protocol's file operations. Every method is one blocking look or one atomic rename;
 * callers run them on worker threads. A method that answers {@code false} or empty found the file
 * gone: another instance got there first, which is an answer, not an error.
 */
public interface Spool {

    /** Up to {@code max} ids waiting in pending/, in no particular order, skipping known junk. */
    List<String> pendingBatch(int max) throws IOException;

    /** pending/{id} → claimed/{claim}. False when the item is gone or is not a regular file. */
    boolean claim(ClaimName claim) throws IOException;

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

    /** claimed/{claim} → done/{id} or failed/{id}. False when the claim is gone. */
    boolean settle(ClaimName claim, ItemState where) throws IOException;

    /** claimed/{claim} → pending/{id}, without counting an attempt. False when the claim is gone. */
    boolean handBack(ClaimName claim) throws IOException;

    /** Records why an item's attempt failed; replaces any earlier reason atomically. */
    void writeReason(String id, Reason reason) throws IOException;

    /** The recorded reason and the attempt it belongs to. */
    Optional<Reason> reason(String id) throws IOException;

    void deleteReason(String id) throws IOException;

    /**
     * Why an item's last attempt did not succeed, kept on disk beside the spool's folders.
     *
     * @param generation the claim generation the text belongs to ("-" for a cancel)
     * @param abandoned how many of the item's attempts were abandoned by a holder that stopped
     */
    record Reason(String generation, int abandoned, String text) {
    }
}
