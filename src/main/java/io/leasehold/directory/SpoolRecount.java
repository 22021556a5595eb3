package io.leasehold.directory;

import io.leasehold.clock.TickingClock;
import io.leasehold.core.ClaimName;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * Brings the census back to what the folders hold: what other programs and instances moved shows after
 * at most one recount. Every {@code leasehold.spool.recount-every} it lists the folders by names alone;
 * every {@value #FULL_LOOK_EVERY}th time, and when the oldest items it kept are all gone or items came
 * back to pending/ with ages of their own, it stats every pending file for the {@value #KEPT} oldest.
 * It runs on a thread of its own, so a large folder never holds up a worker or the drain, and skips ticks
 * after a long listing ({@link RecountPace}), so a huge one never costs more than a small share of a core.
 */
public final class SpoolRecount implements AutoCloseable {

    public static final String TICK = "leasehold-census";
    static final int KEPT = 64;
    public static final int FULL_LOOK_EVERY = 12;
    /** A listing raced by this instance's own moves into or out of the folder is taken again, this often. */
    private static final int LOOKS = 3;

    private static final Logger LOG = Logger.getLogger(SpoolRecount.class);

    private final SpoolLayout layout;
    private final FolderListing listing;
    private final SpoolCensus census;
    private final ClaimLooks claims;
    private final TickingClock clock;
    private volatile ExecutorService thread;
    private volatile TickingClock.Ticks ticks;
    /** Recounts never overlap: the census thread's ticks, and a test's own calls, take turns. */
    private final Object oneAtATime = new Object();
    /** Set by {@link #start}: skipping ticks only matters for the ticks it starts. */
    private volatile RecountPace pace = new RecountPace(0);
    private Set<String> notFiles = Set.of();
    private long recounts;

    SpoolRecount(SpoolLayout layout, FolderListing listing, SpoolCensus census, ClaimLooks claims,
            TickingClock clock) {
        this.layout = layout;
        this.listing = listing;
        this.census = census;
        this.claims = claims;
        this.clock = clock;
    }

    /** Recounts now, then every {@code every}, on the census's own thread. */
    public synchronized void start(Duration every) {
        if (thread != null) {
            return;
        }
        // However long a listing took, a recount comes at least every FULL_LOOK_EVERY intervals.
        pace = new RecountPace(every.multipliedBy(FULL_LOOK_EVERY).toNanos());
        thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "leasehold-census");
            t.setDaemon(true);
            return t;
        });
        ticks = clock.every(TICK, every, this::tick);
        thread.execute(this::recountLogged);
    }

    private Uni<Void> tick() {
        return Uni.createFrom().item(() -> {
            recountLogged();
            return (Void) null;
        }).runSubscriptionOn(thread);
    }

    private void recountLogged() {
        long start = clock.monotonicNanos();
        RecountPace pace = this.pace;
        if (!pace.due(start)) {
            return; // the last recount was long: this tick is skipped, so the census stays cheap
        }
        try {
            recount();
        } catch (IOException | RuntimeException e) {
            // The counts stay as they were, adjusted by this instance's own moves; the next tick tries again.
            LOG.warnf("could not recount the spool: %s", e.toString());
        } finally {
            pace.ran(start, clock.monotonicNanos());
        }
    }

    /** One recount, blocking: listings and, on a full look, a stat of every pending file. */
    void recount() throws IOException {
        synchronized (oneAtATime) {
            recountAlone();
        }
    }

    private void recountAlone() throws IOException {
        long start = clock.monotonicNanos();
        boolean full = !census.recounted() || census.agesUnknown() || ++recounts % FULL_LOOK_EVERY == 0;
        if (!full) {
            settle(SpoolFolder.PENDING, LOOKS, () -> listing.pendingNames(notFiles));
            checkOldest();
            // The kept oldest are all gone: only the ages of every pending file tell who is oldest now.
            full = census.oldest().exhausted() && census.count(SpoolFolder.PENDING) > 0;
        }
        if (full) {
            lookFully();
        }
        lookAtClaims();
        for (SpoolFolder folder : new SpoolFolder[] {SpoolFolder.DONE, SpoolFolder.FAILED}) {
            settle(folder, LOOKS, () -> listing.items(folder));
        }
        census.markRecounted();
        if (LOG.isDebugEnabled()) {
            LOG.debugf("recounted the spool in %d ms%s: %s", (clock.monotonicNanos() - start) / 1_000_000,
                    full ? " (dating every pending file)" : "", census.counts(clock.now()));
        }
    }

    /**
     * Counts claimed/, and from the same listing (the last one taken) how many of its claims are parked
     * and the running claims' ages.
     */
    private void lookAtClaims() throws IOException {
        AtomicReference<List<ClaimName>> listed = new AtomicReference<>();
        long[] mark = new long[1];
        settle(SpoolFolder.CLAIMED, LOOKS, () -> {
            mark[0] = census.parkedMark();
            listed.set(listing.claims());
            return listed.get().size();
        });
        census.parkedListed(claims.listed(listed.get()), mark[0]);
    }

    private void lookFully() throws IOException {
        FolderListing.PendingLook[] seen = new FolderListing.PendingLook[1];
        int oldSlot = census.lookStarts();
        // Taken once however it was raced: a stat of every file is too dear to repeat, and the next
        // recount by names (which does look again) sets the count right.
        settle(SpoolFolder.PENDING, 1, () -> {
            seen[0] = listing.pending(KEPT);
            return seen[0].count();
        });
        notFiles = seen[0].notFiles();
        census.lookEnded(oldSlot, new OldestPending(seen[0].oldest(), seen[0].complete()));
    }

    /**
     * Sets the folder's count to what a listing found, plus this instance's own moves while it listed.
     * A listing may or may not see a move made while it runs: one that no own move raced is exact.
     */
    private void settle(SpoolFolder folder, int looks, Listing count) throws IOException {
        for (int look = 1; ; look++) {
            long touched = census.touches(folder);
            long before = census.stored(folder);
            long listed = count.items();
            if (census.touches(folder) == touched || look >= looks) {
                census.correct(folder, listed - before);
                return;
            }
        }
    }

    /**
     * Steps past the kept oldest items that are no longer pending: one stat for the head, one more for
     * each item gone since. Safe from any thread (GET /spool calls it before reading the census).
     */
    public void checkOldest() throws IOException {
        OldestPending oldest = census.oldest();
        for (FolderListing.Dated head = oldest.head(); head != null; head = oldest.head()) {
            Optional<FileFacts> file = FileFacts.of(layout.file(SpoolFolder.PENDING, head.id()));
            if (file.isPresent() && file.get().regular() && file.get().modified().toEpochMilli() == head.writtenMillis()) {
                return;
            }
            oldest.passed(head); // gone, or another file under its id now: the next full look dates that one
        }
    }

    @Override
    public synchronized void close() {
        if (ticks != null) {
            ticks.close();
        }
        if (thread != null) {
            thread.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface Listing {
        long items() throws IOException;
    }
}
