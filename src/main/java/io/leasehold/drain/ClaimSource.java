package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.core.Sightings;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * Where the next claim comes from: expired claims first (found by the scan of claimed/), then the
 * pending ids that one short listing or the directory watch queued. Many claims are made from one
 * listing; nothing here lists pending/ unless asked to ({@link #listMore}). Safe for several slots at
 * once: each queued name is handed to one of them, and the rename decides between instances.
 */
final class ClaimSource {

    /** How many pending names one listing reads; a huge pending/ is never listed whole for a claim. */
    static final int LISTING_BATCH = 256;

    private final Spool spool;
    private final Clock clock;
    private final Takeover takeover;
    private final DrainEvents events;
    private final Sightings sightings;
    private final Predicate<String> held;
    private final PendingCandidates candidates = new PendingCandidates();
    private final Queue<ClaimName> takeoversDue = new ConcurrentLinkedQueue<>();
    /**
     * Items this instance just handed back because its epoch was refused: the directory watch reports
     * them at once, and claiming them again before the next poll tick or drain pass would only be
     * refused again.
     */
    private final Set<String> handedBackForOthers = ConcurrentHashMap.newKeySet();

    ClaimSource(Spool spool, Clock clock, Takeover takeover, DrainEvents events, Sightings sightings,
            Predicate<String> held) {
        this.spool = spool;
        this.clock = clock;
        this.takeover = takeover;
        this.events = events;
        this.sightings = sightings;
        this.held = held;
    }

    /**
     * The next claim made: an expired claim taken over, or a queued pending item claimed. Names that
     * another instance got first are skipped. Empty when nothing queued is left to try.
     */
    Optional<ClaimName> next() throws IOException {
        for (ClaimName due; (due = takeoversDue.poll()) != null; ) {
            if (!held.test(due.id())) {
                Optional<ClaimName> taken = takeover.takeOver(due);
                if (taken.isPresent()) {
                    return taken;
                }
            }
        }
        for (String id; (id = candidates.poll()) != null; ) {
            if (held.test(id) || handedBackForOthers.contains(id)) {
                continue;
            }
            Optional<ClaimName> claim = spool.claim(id, clock.now());
            if (claim.isPresent()) {
                events.claimed(id);
                return claim;
            }
        }
        return Optional.empty();
    }

    /** Lists the next batch of pending/ when the folder has not been seen whole; false when it has. */
    boolean listMore() throws IOException {
        if (!candidates.needsListing()) {
            return false;
        }
        long listing = candidates.listingStarts();
        List<String> batch = spool.pendingBatch(LISTING_BATCH);
        // Instances list in the same order; shuffling keeps them from racing for the same names.
        Collections.shuffle(batch);
        candidates.offerListing(batch, batch.size() < LISTING_BATCH, listing);
        return true;
    }

    /** Queues the expired claims of claimed/ that may be taken over now, the longest expired first. */
    void scanClaims() throws IOException {
        long started = clock.monotonicNanos();
        List<ClaimName> listed = spool.claims();
        sightings.listed(listed, started, clock.monotonicNanos());
        takeover.listed(listed);
        Instant now = clock.now();
        List<ClaimName> due = new ArrayList<>();
        for (ClaimName claim : listed) {
            if (!held.test(claim.id()) && takeover.isDue(claim, now)) {
                due.add(claim);
            }
        }
        due.sort(Comparator.comparing(ClaimName::reading));
        takeoversDue.clear();
        takeoversDue.addAll(due);
    }

    /** A name seen arriving in pending/; false when it cannot be queued (the folder is listed instead). */
    boolean arrived(String name) {
        return ItemId.isValid(name) && candidates.offer(name);
    }

    /** Something may have arrived unseen: list pending/ again once the queue runs dry. */
    void forgetListing() {
        candidates.forgetListing();
    }

    /** A poll tick or a new drain pass: items handed back for the lease holder may be tried again. */
    void newRound() {
        handedBackForOthers.clear();
        candidates.forgetListing();
    }

    void handedBackForOthers(String id) {
        handedBackForOthers.add(id);
    }

    /** Nothing queued, the folder seen whole, no expired claim waiting. */
    boolean exhausted() {
        return candidates.isEmpty() && !candidates.needsListing() && takeoversDue.isEmpty();
    }
}
