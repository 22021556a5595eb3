package io.leasehold.spool;

import java.io.IOException;

/**
 * A file under an item's or a bookkeeping name that must not be read: too large for the bound, or not
 * a plain file of the spool's own (a symlink, a FIFO, a directory, a hard link to a name elsewhere).
 * It is not a passing I/O error: looking again gives the same answer.
 */
public final class UnfitFileException extends IOException {

    /** What is wrong, which decides what the drain does with it. */
    public enum Kind {
        /** A regular file larger than the bound: an item with this payload ends in failed with the message. */
        OVERSIZED,
        /** Not a file of the spool's own: left alone, reported, never read. */
        JUNK
    }

    private final Kind kind;

    public UnfitFileException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
