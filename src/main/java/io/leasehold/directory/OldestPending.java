package io.leasehold.directory;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The oldest pending items of the last stat-ing look, oldest first, and how far down that list the items
 * are known gone. Every item that look saw and did not keep is younger than all it kept, so the first one
 * still in pending/ is the oldest of them all: checking the head costs one stat, not a look at every file.
 */
final class OldestPending {

    /** No time: nothing pending is known. */
    static final long NONE = Long.MAX_VALUE;

    static final OldestPending EMPTY = new OldestPending(List.of(), true);

    private final List<FolderListing.Dated> kept;
    /** Whether {@code kept} was every pending item of the look, so none but newer arrivals remain after it. */
    private final boolean complete;
    private final AtomicInteger head = new AtomicInteger();

    OldestPending(List<FolderListing.Dated> kept, boolean complete) {
        this.kept = List.copyOf(kept);
        this.complete = complete;
    }

    /** The first kept item not yet known gone; null when all are. */
    FolderListing.Dated head() {
        int at = head.get();
        return at < kept.size() ? kept.get(at) : null;
    }

    /** {@code gone} is no longer pending: the next one becomes the head (only once, however many look). */
    void passed(FolderListing.Dated gone) {
        int at = head.get();
        if (at < kept.size() && kept.get(at) == gone) {
            head.compareAndSet(at, at + 1);
        }
    }

    /**
     * When the oldest item the look saw was written: the head's time; once every kept item is gone, the
     * youngest kept one's when the look saw more than it kept (the rest are younger: an upper bound of
     * the age until the next look), else {@link #NONE}.
     */
    long sinceMillis() {
        FolderListing.Dated first = head();
        if (first != null) {
            return first.writtenMillis();
        }
        return complete || kept.isEmpty() ? NONE : kept.get(kept.size() - 1).writtenMillis();
    }

    /** Every kept item is gone: who is oldest now takes a new look to tell. */
    boolean exhausted() {
        return head() == null;
    }
}
