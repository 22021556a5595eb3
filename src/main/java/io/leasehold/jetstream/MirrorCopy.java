package io.leasehold.jetstream;

import io.leasehold.core.ClaimName;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ClaimAges;
import io.leasehold.spool.ItemListing;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.RunningClaims;
import io.leasehold.spool.SpoolCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * One picture of the ledger in memory, fed by one watch in stream order and by this instance's own writes
 * as they are answered (so what this instance wrote it also lists at once). Every item is kept at the
 * highest revision seen of it, and indexed by state in the order listings answer in; counts are the
 * indexes' sizes, the parked claims counted apart from the held ones. Not a source of truth: a move still
 * reads the entry and writes at its revision.
 */
final class MirrorCopy {

    /**
     * An item as the picture has it: its entry at that revision, without an inline payload, so never the
     * base of a write (a move reads the entry first).
     */
    record Glimpse(String id, long revision, LedgerEntry entry, Instant since) {

        /** @param entry its entry; {@code since} is what listings sort by: when it entered its state (a claim's reading) */
        static Glimpse of(String id, long revision, LedgerEntry entry) {
            Instant at = switch (entry.state()) {
                case "claimed" -> entry.reading();
                case "done", "failed" -> entry.settledAt();
                default -> entry.enqueuedAt();
            };
            return new Glimpse(id, revision, entry, at != null ? at : entry.enqueuedAt() != null ? entry.enqueuedAt() : Instant.EPOCH);
        }

        /** No item: where a listing starts, just past {@code after}. */
        static Glimpse probe(ItemListing.Position after) {
            return new Glimpse(after.id(), -1, null, after.at());
        }
    }

    private static final Comparator<Glimpse> ORDER = Comparator.comparing(Glimpse::since).thenComparing(Glimpse::id);

    private final Map<String, Glimpse> items = new HashMap<>();
    private final Map<String, TreeSet<Glimpse>> byState = new HashMap<>();
    /**
     * Removals this instance made that the watch has not told of yet, by id, at the revision removed: the
     * watch may still bring that revision (or an older one), which must not bring the item back.
     */
    private final Map<String, Long> removedAt = new HashMap<>();
    /** The highest stream sequence the watch delivered: anything at or below it the watch has told of. */
    private long delivered;
    private boolean complete;
    /** Since when each running claim is held: kept as entries come and go, read by a scrape. */
    private final RunningClaims running = new RunningClaims();
    /** The claims parked until a scheduled time or for a retry, by id: counted apart from the held ones. */
    private final Map<String, AttemptRecord.Kind> parked = new HashMap<>();
    /** Of {@link #parked}, the scheduled ones: kept as it changes, so a scrape counts nothing. */
    private long scheduledParked;

    MirrorCopy() {
    }

    /** A picture made afresh: a claim {@code older} saw keeps its start when this one first sees it. */
    MirrorCopy(MirrorCopy older) {
        running.carryOver(older.running);
    }

    /** What the watch delivered: the entry of {@code id} at {@code revision}. */
    synchronized void delivered(String id, long revision, LedgerEntry entry) {
        delivered = Math.max(delivered, revision);
        Long removed = removedAt.get(id);
        if (removed != null && revision <= removed) {
            return;
        }
        removedAt.remove(id);
        put(id, revision, entry);
    }

    /**
     * Whether the watch's delivery of {@code id} at {@code revision} can bring nothing new (this instance
     * wrote it, or something later of the key, or removed it): then it only moves the watermark, and the
     * caller need not decode the entry.
     */
    synchronized boolean passedIfKnown(String id, long revision) {
        Glimpse known = items.get(id);
        Long removed = removedAt.get(id);
        if ((known != null && known.revision() >= revision) || (removed != null && removed >= revision)) {
            delivered = Math.max(delivered, revision);
            return true;
        }
        return false;
    }

    /** What the watch delivered: a delete or purge of {@code id} at {@code revision}. */
    synchronized void deliveredRemoval(String id, long revision) {
        delivered = Math.max(delivered, revision);
        removedAt.remove(id);
        drop(id, revision);
    }

    /** What the watch delivered of a key no item maps to (a batch marker): it has passed {@code revision}. */
    synchronized void passed(long revision) {
        delivered = Math.max(delivered, revision);
    }

    /**
     * This instance's own write, answered at {@code revision}. Once the watch has delivered that far it has
     * told of this write (or of a later one of the key), so the write adds nothing.
     */
    synchronized void wrote(String id, long revision, LedgerEntry entry) {
        if (revision <= delivered) {
            return;
        }
        Long removed = removedAt.get(id);
        if (removed != null && revision <= removed) {
            return;
        }
        put(id, revision, entry);
    }

    /** This instance's own removal of {@code id} as seen at {@code revision}. */
    synchronized void removed(String id, long revision) {
        if (revision < delivered && !items.containsKey(id)) {
            return; // the watch told of the removal already
        }
        removedAt.merge(id, revision, Math::max);
        drop(id, revision);
    }

    private void put(String id, long revision, LedgerEntry entry) {
        Glimpse old = items.get(id);
        if (old != null && old.revision() >= revision) {
            return;
        }
        Glimpse now = Glimpse.of(id, revision, entry.withoutInline()); // payloads stay on the server
        if (old != null) {
            byState.get(old.entry().state()).remove(old);
        }
        items.put(id, now);
        byState.computeIfAbsent(entry.state(), s -> new TreeSet<>(ORDER)).add(now);
        Optional<ClaimName> claim = LedgerEntry.CLAIMED.equals(entry.state()) ? entry.claimNameIfWellFormed(id)
                : Optional.empty();
        Optional<AttemptRecord> own = claim.isPresent() && entry.generation() != null
                ? Optional.ofNullable(entry.records().get(entry.generation())) : Optional.empty();
        park(id, own.filter(AttemptRecord::parks).map(AttemptRecord::kind).orElse(null));
        if (claim.isPresent() && !parked.containsKey(id)) {
            running.running(claim.get());
        } else {
            running.notRunning(id);
        }
    }

    /** Whether the picture has {@code id} as a claim parked until a scheduled time or for a retry. */
    synchronized boolean parked(String id) {
        return parked.containsKey(id);
    }

    private void drop(String id, long upTo) {
        Glimpse old = items.get(id);
        if (old != null && old.revision() <= upTo) {
            items.remove(id);
            byState.get(old.entry().state()).remove(old);
            running.notRunning(id);
            park(id, null);
        }
    }

    /** {@code id} is parked for this reason now, or (null) not parked. */
    private void park(String id, AttemptRecord.Kind kind) {
        AttemptRecord.Kind was = kind == null ? parked.remove(id) : parked.put(id, kind);
        scheduledParked += (kind == AttemptRecord.Kind.SCHEDULED ? 1 : 0)
                - (was == AttemptRecord.Kind.SCHEDULED ? 1 : 0);
    }

    /** The watch's initial values are all in: from now on the picture is whole, up to its lag. */
    synchronized void markComplete(long coveredUpTo) {
        delivered = Math.max(delivered, coveredUpTo);
        complete = true;
        running.lookWhole();
    }

    synchronized boolean complete() {
        return complete;
    }

    synchronized long delivered() {
        return delivered;
    }

    /** Whether the picture's entry of {@code id} names the payload object {@code name}. */
    synchronized boolean names(String id, String name) {
        Glimpse g = items.get(id);
        return g != null && name.equals(g.entry().payload());
    }

    /** Up to {@code limit} items in {@code state}, oldest first, that {@code keep} accepts. */
    synchronized List<Glimpse> inState(String state, int limit, Predicate<Glimpse> keep) {
        return inState(state, null, limit, keep);
    }

    /** As {@link #inState(String, int, Predicate)}, from just past {@code after} (from the first when null). */
    synchronized List<Glimpse> inState(String state, ItemListing.Position after, int limit, Predicate<Glimpse> keep) {
        List<Glimpse> out = new ArrayList<>(Math.min(limit, 256));
        TreeSet<Glimpse> in = byState.getOrDefault(state, new TreeSet<>(ORDER));
        for (Glimpse g : after == null ? in : in.tailSet(Glimpse.probe(after), false)) {
            if (out.size() >= limit) {
                break;
            }
            if (keep.test(g)) {
                out.add(g);
            }
        }
        return out;
    }

    /** Up to {@code max} items in {@code state} in listing order, after {@code after} (from the first when null). */
    synchronized List<Glimpse> after(String state, Glimpse after, int max) {
        TreeSet<Glimpse> in = byState.get(state);
        if (in == null) {
            return List.of();
        }
        List<Glimpse> out = new ArrayList<>(Math.min(max, 1024));
        for (Glimpse g : after == null ? in : in.tailSet(after, false)) {
            if (out.size() >= max) {
                break;
            }
            out.add(g);
        }
        return out;
    }

    synchronized SpoolCounts counts(Instant now) {
        TreeSet<Glimpse> pending = byState.get(ItemState.PENDING.label());
        long age = pending == null || pending.isEmpty() ? 0
                : Math.max(0, now.toEpochMilli() - pending.first().since().toEpochMilli());
        return new SpoolCounts(size(ItemState.PENDING), size(ItemState.CLAIMED) - parked.size(), scheduledParked,
                parked.size() - scheduledParked, size(ItemState.DONE), size(ItemState.FAILED), age);
    }

    /** The running claims' ages at {@code now}: see {@link RunningClaims}. */
    ClaimAges claimAges(Instant now, Duration bound) {
        return running.ages(now, bound);
    }

    private long size(ItemState state) {
        TreeSet<Glimpse> in = byState.get(state.label());
        return in == null ? 0 : in.size();
    }

    /** Forgets removals the watch has passed: nothing it delivers from now on can be that old. */
    synchronized void forgetPassedRemovals() {
        removedAt.values().removeIf(revision -> revision < delivered);
    }
}
