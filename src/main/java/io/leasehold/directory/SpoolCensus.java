package io.leasehold.directory;

import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.SpoolCounts;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How many items each folder holds and since when the oldest pending one waits, kept in memory so that
 * GET /spool and the gauges cost nothing however large the folders are. This instance's own moves adjust
 * it at once, each with an atomic add or two (no allocation, no file call: they sit on the drain's path);
 * what other programs and instances do is brought in by {@link SpoolRecount}'s listings. A count read
 * is never below zero, whatever order moves and recounts come in.
 */
public final class SpoolCensus {

    private static final SpoolFolder[] COUNTED =
            {SpoolFolder.PENDING, SpoolFolder.CLAIMED, SpoolFolder.DONE, SpoolFolder.FAILED};

    private final AtomicLongArray counts = new AtomicLongArray(COUNTED.length);
    /** Own moves into or out of each folder so far: a recount that raced one of them looks again. */
    private final AtomicLongArray touches = new AtomicLongArray(COUNTED.length);
    /**
     * The earliest write time of the items this instance put in pending/ since a stat-ing look started, in
     * two slots: a look starts a fresh one and clears the other once it has seen every file linked before.
     */
    private final AtomicLongArray arrivals = new AtomicLongArray(new long[] {OldestPending.NONE, OldestPending.NONE});
    private volatile int slot;
    /** Items came back to pending/ (hand-back, retry) with write times of their own: look at the ages again. */
    private volatile boolean agesUnknown;
    private volatile OldestPending oldest = OldestPending.EMPTY;
    private volatile boolean recounted;
    /** Of claimed/'s count, the claims parked until a scheduled time and for a retry. */
    private final ParkedClaims parked = new ParkedClaims();

    /** This instance linked a new item into pending/ at {@code at}. */
    public void enqueued(Instant at) {
        add(SpoolFolder.PENDING, 1);
        arrivals.accumulateAndGet(slot, at.toEpochMilli(), Math::min);
    }

    /** This instance put a new item straight into claimed/, parked until its scheduled time. */
    public void scheduled(String id, Generation generation) {
        parked.parked(id, generation, AttemptRecord.Kind.SCHEDULED); // before the touch: a raced recount looks again
        add(SpoolFolder.CLAIMED, 1);
    }

    /** This instance parked its claim {@code generation} of {@code id} for {@code kind} (a retry, a schedule). */
    public void parked(String id, Generation generation, AttemptRecord.Kind kind) {
        parked.parked(id, generation, kind);
        add(SpoolFolder.CLAIMED, 0);
    }

    /** This instance renamed its claim {@code generation} of {@code id} within its generation (renewed, parked). */
    public void renamed(String id, Generation generation) {
        if (parked.renamed(id, generation)) {
            add(SpoolFolder.CLAIMED, 0); // a park: a recount that raced it looks again (a renewal touches nothing)
        }
    }

    /** This instance took or settled the claim {@code generation} of {@code id}: parked or not, it is not now. */
    public void unparked(String id, Generation generation) {
        parked.unparked(id, generation);
        add(SpoolFolder.CLAIMED, 0);
    }

    /** This instance moved an item between two of the counted folders. */
    public void moved(SpoolFolder from, SpoolFolder to) {
        add(from, -1);
        add(to, 1);
        if (to == SpoolFolder.PENDING) {
            agesUnknown = true; // an item back in pending/ waits since its own write, which this call does not know
        }
    }

    /** As {@link #moved(SpoolFolder, SpoolFolder)}, of an item whose file was last written at {@code written}. */
    public void moved(SpoolFolder from, SpoolFolder to, Instant written) {
        moved(from, to);
        if (to == SpoolFolder.PENDING) {
            // Back in pending/ (a hand-back, a retry): it may be the oldest now. If it is claimed again, the
            // age stays this old until the next recount, which looks at every pending file's age.
            arrivals.accumulateAndGet(slot, written.toEpochMilli(), Math::min);
        }
    }

    /** This instance removed an item for good (a purge). */
    public void removed(SpoolFolder from) {
        add(from, -1);
    }

    /** The counts now; a pending item's age counts from its file's last write. */
    public SpoolCounts counts(Instant now) {
        long pending = count(SpoolFolder.PENDING);
        long since = Math.min(oldest.sinceMillis(), Math.min(arrivals.get(0), arrivals.get(1)));
        long ageMs = pending == 0 || since == OldestPending.NONE ? 0 : Math.max(0, now.toEpochMilli() - since);
        long parkedScheduled = parked.scheduled();
        long parkedRetrying = parked.retrying();
        long held = Math.max(0, count(SpoolFolder.CLAIMED) - parkedScheduled - parkedRetrying);
        return new SpoolCounts(pending, held, parkedScheduled, parkedRetrying, count(SpoolFolder.DONE),
                count(SpoolFolder.FAILED), ageMs);
    }

    /** Whether a recount has run: until then only this instance's own moves since the start are known. */
    public boolean recounted() {
        return recounted;
    }

    long count(SpoolFolder folder) {
        return Math.max(0, stored(folder));
    }

    /** Below zero when this instance took out items the census had not counted yet (dropped in since). */
    long stored(SpoolFolder folder) {
        return counts.get(index(folder));
    }

    long touches(SpoolFolder folder) {
        return touches.get(index(folder));
    }

    /** A recount's estimate: what it listed plus own moves meanwhile, which is never less than none. */
    void correct(SpoolFolder folder, long by) {
        counts.getAndUpdate(index(folder), n -> Math.max(0, n + by));
    }

    /** Where a listing of claimed/ begins, for {@link #parkedListed}. */
    long parkedMark() {
        return parked.mark();
    }

    /** A listing of claimed/ begun at {@code mark} ({@link #parkedMark()}) found {@code listed} parked. */
    void parkedListed(Map<String, ParkedClaims.Parked> listed, long mark) {
        parked.listed(listed, mark);
    }

    void markRecounted() {
        recounted = true;
    }

    OldestPending oldest() {
        return oldest;
    }

    boolean agesUnknown() {
        return agesUnknown;
    }

    /** A stat-ing look of pending/ starts: own enqueues from now on go to a fresh slot. Returns the old one. */
    int lookStarts() {
        agesUnknown = false;
        int old = slot;
        arrivals.set(1 - old, OldestPending.NONE);
        slot = 1 - old;
        return old;
    }

    /** The look that started with {@link #lookStarts()} saw every file linked before then. */
    void lookEnded(int oldSlot, OldestPending seen) {
        oldest = seen;
        arrivals.set(oldSlot, OldestPending.NONE);
    }

    private void add(SpoolFolder folder, int by) {
        int i = index(folder);
        // A plain add, never clamped: the moves of one item may be counted out of order (its claim before its
        // enqueue's count), and only adds that commute add up. Reads clamp at 0.
        counts.addAndGet(i, by);
        touches.incrementAndGet(i);
    }

    private static int index(SpoolFolder folder) {
        for (int i = 0; i < COUNTED.length; i++) {
            if (COUNTED[i] == folder) {
                return i;
            }
        }
        throw new IllegalArgumentException(folder.dirName() + "/ holds no items to count");
    }
}
