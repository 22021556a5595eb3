package io.leasehold.spool;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * One POST /items/batch on its way in, all or nothing: each line's payload is staged as it is read, its id
 * known to every instance from then on; {@link #commit()} makes every item claimable at once, and closing
 * without a commit leaves nothing of the batch behind. Used by one thread.
 */
public interface StagedBatch extends AutoCloseable {

    /**
     * Opens the payload of the item on {@code line}; {@code id} when the line named it before its payload
     * (it is reserved now), null otherwise. The stream refuses more than max-bytes.
     */
    OutputStream payload(int line, String id) throws IOException;

    /** The line is read whole: its item is {@code id} (null: one is made). */
    void item(int line, String id) throws IOException;

    /**
     * Throws the refusal of an earlier line ({@link ItemStore.DuplicateItemException} naming its line), if
     * there is one, after waiting for what the store has not answered yet. Called before a later line's
     * own refusal is answered, so the first refused line is the one named, however late the store hears.
     */
    default void refusedSoFar() throws IOException {
    }

    /** Makes the batch durable and claimable, all of it; returns the ids in line order. */
    List<String> commit() throws IOException;

    /** Without a commit: everything staged goes, reservations included. */
    @Override
    void close() throws IOException;
}
