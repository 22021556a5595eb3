package io.leasehold.drain;

import java.util.Collection;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Ids that may be waiting in pending/, so each claim does not re-list the folder. Filled from
 * directory-watch events and from short listings; a listing that found fewer than it asked for
 * means the folder was seen whole, and no new listing is made until a tick or a watch overflow says
 * something may have been missed.
 */
final class PendingCandidates {

    /** Bounds memory however many items arrive at once; the rest are found by the next listing. */
    static final int CAPACITY = 4096;

    private final Queue<String> queue = new ConcurrentLinkedQueue<>();
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    private volatile boolean seenWhole;
    /** Counts the reasons to list again, so a listing that raced one does not claim to have seen all. */
    private final java.util.concurrent.atomic.AtomicLong forgotten = new java.util.concurrent.atomic.AtomicLong();

    /** Returns false when full: the folder must then be listed again later. */
    boolean offer(String id) {
        if (queued.size() >= CAPACITY) {
            forgetListing();
            return false;
        }
        if (queued.add(id)) {
            queue.add(id);
        }
        return true;
    }

    /** Call before listing; pass the answer to {@link #offerListing}. */
    long listingStarts() {
        return forgotten.get();
    }

    void offerListing(Collection<String> ids, boolean whole, long startedAt) {
        for (String id : ids) {
            offer(id);
        }
        if (whole && forgotten.get() == startedAt) {
            seenWhole = true;
        }
    }

    String poll() {
        String id = queue.poll();
        if (id != null) {
            queued.remove(id);
        }
        return id;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    boolean needsListing() {
        return !seenWhole;
    }

    /** Something may have arrived unseen: list again when the queue runs dry. */
    void forgetListing() {
        forgotten.incrementAndGet();
        seenWhole = false;
    }
}
