package io.leasehold.directory;

import io.leasehold.clock.TickingClock;
import io.leasehold.core.ClaimName;
import io.leasehold.core.ItemId;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ClaimAges;
import io.leasehold.spool.ItemListing;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.RunningClaims;
import io.leasehold.spool.SpoolCounts;
import io.leasehold.spool.StagedBatch;
import io.leasehold.spool.Staleness;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** The API's view of a spool on a POSIX filesystem. */
public final class PosixItemStore implements ItemStore, AutoCloseable {

    private static final List<SpoolFolder> PAYLOAD_FOLDERS = List.of(SpoolFolder.PENDING, SpoolFolder.DONE, SpoolFolder.FAILED);

    private final TickingClock clock;
    private final ItemQueries queries;
    private final ItemMoves moves;
    private final Enqueue enqueue;
    private final SpoolCleanup cleanup;
    private final SpoolLayout layout;
    private final PosixSpool spool;
    private final DirectorySync sync;
    /** One group commit of pending/ for every enqueue through this store, single or batch. */
    private final GroupCommit pendingSync;
    /** Batch folders this process is making (its own housekeeping never touches them), or gave up. */
    private final BatchMakers liveBatches = new BatchMakers();
    private final BatchRecovery batches;
    private final BatchSyncs batchSyncs;
    private volatile Consumer<String> arrivals = id -> { };
    private final SpoolCensus census;
    private final SpoolRecount recount;
    private final RunningClaims running = new RunningClaims();

    public PosixItemStore(SpoolLayout layout, PosixSpool spool, LeaseTerms terms, TickingClock clock) {
        this(layout, spool, terms, clock, new PosixDirectorySync());
    }

    public PosixItemStore(SpoolLayout layout, PosixSpool spool, LeaseTerms terms, TickingClock clock, DirectorySync sync) {
        this.clock = clock;
        this.layout = layout;
        this.spool = spool;
        this.sync = sync;
        this.pendingSync = new GroupCommit(layout.folder(SpoolFolder.PENDING), sync);
        this.queries = new ItemQueries(layout, spool.records(), terms, clock);
        this.moves = new ItemMoves(layout, spool, queries, clock);
        this.enqueue = new Enqueue(layout, queries, spool.reservations(), spool.census(), clock, pendingSync,
                new GroupCommit(layout.folder(SpoolFolder.CLAIMED), sync), spool.records(), terms);
        this.cleanup = new SpoolCleanup(layout, spool.reservations(), spool.records(), queries, clock);
        this.batches = new BatchRecovery(layout, spool.reservations(), pendingSync, liveBatches, clock);
        this.batchSyncs = BatchSyncs.forSpool(layout.root(), spool.linuxCalls());
        this.census = spool.census();
        this.recount = new SpoolRecount(layout, new FolderListing(layout), census,
                new ClaimLooks(spool.records(), spool, running), clock);
    }

    /** Recounts the spool now and then every {@code every}, for what other programs and instances move. */
    public void startRecounts(Duration every) {
        recount.start(every);
    }

    /** Whether a batch's payloads reach the disk by one syncfs (else by an fsync each). */
    public boolean batchesSyncBySyncfs() {
        return batchSyncs.bySyncfs();
    }

    public SpoolCensus census() {
        return census;
    }

    @Override
    public ItemView enqueue(String id, InputStream payload, long maxBytes, Instant runAt) throws IOException {
        return enqueue.enqueue(id, payload, maxBytes, runAt);
    }

    @Override
    public StagedBatch stageBatch(long maxBytes) throws IOException {
        return new PosixStagedBatch(layout, spool.reservations(), queries, sync, pendingSync, liveBatches,
                id -> { // called for each item once the whole batch is in pending/
                    census.enqueued(clock.now());
                    arrivals.accept(id);
                }, this::newId, maxBytes, clock, batchSyncs);
    }

    @Override
    public void whenArrived(Consumer<String> arrivals) {
        this.arrivals = arrivals;
        enqueue.whenArrived(arrivals);
        moves.whenArrived(arrivals);
    }

    @Override
    public Optional<ItemView> lookup(String id) throws IOException {
        return queries.lookup(id);
    }

    /**
     * Looked for where the item may be; a move between two looks, or one half-done (a link's second name, for
     * an instant), is looked for again, at most three times.
     */
    @Override
    public Optional<byte[]> payload(String id) throws IOException {
        ItemId.require(id);
        io.leasehold.spool.UnfitFileException unfit = null;
        for (int look = 0; look < 3; look++) {
            try {
                for (SpoolFolder folder : PAYLOAD_FOLDERS) {
                    Optional<byte[]> found = readPayload(id, layout.file(folder, id));
                    if (found.isPresent()) {
                        return found;
                    }
                }
                Optional<ClaimName> claim = queries.claimOf(id);
                Optional<byte[]> found = claim.isEmpty() ? Optional.empty() : readPayload(id, layout.claimFile(claim.get()));
                if (found.isPresent()) {
                    return found;
                }
                if (unfit == null && claim.isEmpty() && look > 0) {
                    return Optional.empty(); // looked twice, found nowhere: no such item
                }
            } catch (io.leasehold.spool.UnfitFileException e) {
                unfit = e;
            }
        }
        if (unfit != null) {
            throw new UnfitPayloadException(id, unfit.getMessage());
        }
        return Optional.empty();
    }

    private Optional<byte[]> readPayload(String id, java.nio.file.Path file) throws IOException {
        try {
            return Optional.of(SpoolFiles.readBounded(file, spool.maxPayloadBytes(), "the payload of " + id));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<ItemView> list(ItemState state, ItemListing page) throws IOException {
        return queries.list(state, page);
    }

    @Override
    public List<ItemView> listParked(String shownAs, ItemListing page) throws IOException {
        return queries.listParked(shownAs, page);
    }

    /**
     * From the census: this instance's own moves at once, other programs' and instances' as of the last
     * recount. Until the first recount has run, a full count.
     */
    @Override
    public SpoolCounts counts() throws IOException {
        if (!census.recounted()) {
            return queries.counts();
        }
        recount.checkOldest();
        return census.counts(clock.now());
    }

    @Override
    public SpoolCounts countsNow() {
        return census.counts(clock.now());
    }

    /** As of the last recount's listing of claimed/, every holder's claims. */
    @Override
    public ClaimAges claimAgesNow(Duration bound) {
        return running.ages(clock.now(), bound);
    }

    /** A listing of every folder and a stat of every pending file: what the census is recounted to. */
    public SpoolCounts fullCounts() throws IOException {
        return queries.counts();
    }

    /** One recount now, on the caller's thread. */
    void recount() throws IOException {
        recount.recount();
    }

    @Override
    public void close() {
        recount.close();
    }

    @Override
    public ItemView cancel(String id) throws IOException {
        return moves.cancel(id);
    }

    @Override
    public ItemView retry(String id) throws IOException {
        return moves.retry(id);
    }

    @Override
    public boolean purge(String id, ItemState settled) throws IOException {
        return moves.purge(ItemId.require(id), settled);
    }

    /**
     * As every store's, but where no item is found, junk under the id's settled names (a link, a FIFO, a
     * directory: which a lookup passes over, though it keeps the id taken) is refused naming it, never "no item".
     */
    @Override
    public void purgeSettled(String id) throws IOException {
        try {
            ItemStore.super.purgeSettled(id);
        } catch (NoSuchItemException none) {
            for (ItemState settled : List.of(ItemState.DONE, ItemState.FAILED)) {
                if (purge(id, settled)) { // throws for junk, left alone
                    return; // an item settled meanwhile: purged, as asked
                }
            }
            throw none;
        }
    }

    @Override
    public SettledWalk walkSettled(ItemState settled, boolean reasons) throws IOException {
        return queries.walkSettled(settled, reasons);
    }

    /**
     * Removes what crashed writers left: files in tmp/ (and the epoch floor's temporaries) that are
     * {@link Staleness stale}, with the reservation of an upload that never became an item; and finishes the
     * batches whose makers are gone (proven dead, or stale): a committed one
     * rolled forward, an uncommitted one rolled back. Returns how many.
     */
    public int cleanTmp(Staleness staleness) throws IOException {
        return cleanup.cleanTmp(staleness) + batches.recover(staleness);
    }

    /**
     * Removes bookkeeping nothing needs any more: reservations made before {@code cutoff} whose item is
     * nowhere, records and old reasons of items that are done or gone. Returns how many. Slow on a large
     * spool (it looks at every reservation): run it now and then.
     */
    public int sweepBookkeeping(Instant cutoff) throws IOException {
        return cleanup.sweepBookkeeping(cutoff);
    }

    @Override
    public String newId() {
        return ItemId.timeOrdered(clock.now());
    }
}
