package io.leasehold.directory;

import io.leasehold.core.Clock;
import io.leasehold.spool.BatchLines;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A batch staged in the spool's tmp/ folder, all or nothing. Each item is staged in the batch's folder ({@link BatchFolder}) as
 * its line is read, its id reserved there (so a known id refuses the batch before the rest is read).
 * {@link #commit()} waits until every staged payload is on disk ({@link BatchSyncs}), fsyncs the
 * folder, writes the commit marker, links every item into pending/ and waits for one sync of pending/
 * ({@link GroupCommit}); only then are the staging names
 * removed and the items announced. Closed without a commit, everything staged is rolled back: no file and
 * no reservation is left. Past the marker the batch is committed: a failure after it answers an error but
 * leaves the staging for {@link BatchRecovery} to roll forward (the links, the sync), so the batch ends
 * whole, never half. One batch is used by one thread.
 */
public final class PosixStagedBatch implements StagedBatch {

    private static final Logger LOG = Logger.getLogger(PosixStagedBatch.class);
    private record Item(String id, long ino) {
    }

    private final SpoolLayout layout;
    private final Reservations reservations;
    private final ItemQueries queries;
    private final DirectorySync sync;
    private final GroupCommit pendingSync;
    private final BatchMakers live;
    private final Consumer<String> arrivals;
    private final Supplier<String> newId;
    private final long maxBytes;
    private final BatchFolder folder;
    private final List<Item> items = new ArrayList<>();
    /** The reservations this batch made, released without a descriptor if it is not committed. */
    private final List<Reservations.Made> reserved = new ArrayList<>();
    private final Clock clock;
    private final BatchLines lines = new BatchLines();
    private final BatchSyncs.Batch syncs;
    private FileChannel open;
    private Path openPath;
    private long openIno;
    private String openId;
    private boolean committed;
    private boolean finished;
    /** Told each step of the commit as it is passed ("staged", "committed", "linked <k>", "synced"): a test's seam. */
    Consumer<String> steps = step -> { };

    PosixStagedBatch(SpoolLayout layout, Reservations reservations, ItemQueries queries, DirectorySync sync,
            GroupCommit pendingSync, BatchMakers live, Consumer<String> arrivals, Supplier<String> newId, long maxBytes,
            Clock clock, BatchSyncs batchSyncs) throws IOException {
        this.clock = clock;
        this.layout = layout;
        this.reservations = reservations;
        this.queries = queries;
        this.sync = sync;
        this.pendingSync = pendingSync;
        this.live = live;
        this.arrivals = arrivals;
        this.newId = newId;
        this.maxBytes = maxBytes;
        // Before anything of the batch is made: a syncfs answers what came after, and a begin that fails leaves nothing.
        this.syncs = batchSyncs.begin(layout.folder(SpoolFolder.TMP));
        try {
            this.folder = BatchFolder.create(layout);
        } catch (IOException | RuntimeException e) {
            syncs.close();
            throw e;
        }
        live.started(folder.name); // this process's housekeeping leaves it alone while it is made
    }

    /**
     * Opens the payload of the item on {@code line}; {@code id} when the line named it before its payload
     * (it is reserved now), null otherwise. The stream refuses more than max-bytes.
     */
    @Override
    public OutputStream payload(int line, String id) throws IOException {
        lines.opening(line, id);
        openPath = id != null ? folder.staged(id) : folder.unnamed(line);
        open = FileChannel.open(openPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        openIno = FileFacts.of(openPath).orElseThrow(() -> new ItemStore.UploadLostException(String.valueOf(id))).ino();
        openId = id;
        if (id != null) {
            reserve(id);
        }
        return new PayloadOut();
    }

    /** The line is read whole: its item is {@code id} (null: one is made). */
    @Override
    public void item(int line, String id) throws IOException {
        lines.closing(line);
        open.close();
        open = null;
        if (openId == null) {
            String named = id != null ? id : newId.get();
            lines.admit(line, named);
            Files.move(openPath, folder.staged(named)); // never replaces: the id is new to this batch
            openPath = folder.staged(named);
            openId = named;
            reserve(named);
        }
        items.add(new Item(openId, openIno));
        syncs.written(folder.staged(openId));
    }

    private void reserve(String id) throws IOException {
        reserved.add(reservations.reserveOwn(id, openIno, clock.now())
                .orElseThrow(() -> new ItemStore.DuplicateItemException(id)));
        if (queries.lookOnce(id).isPresent()) {
            throw new ItemStore.DuplicateItemException(id); // an item of a spool older than reservations
        }
    }

    /** Makes the batch durable in pending/, all of it; returns the ids in line order. */
    @Override
    public List<String> commit() throws IOException {
        if (items.isEmpty()) {
            throw new IllegalArgumentException("the batch holds no items");
        }
        List<String> ids = new ArrayList<>(items.size());
        for (Item item : items) {
            ids.add(item.id());
        }
        try (syncs) {
            syncs.awaitDurable();
        }
        sync.force(folder.dir);
        steps.accept("staged");
        folder.commit(ids, sync);
        committed = true;
        steps.accept("committed");
        try {
            int linked = 0;
            for (Item item : items) {
                link(item);
                steps.accept("linked " + ++linked);
            }
            pendingSync.awaitSync();
            steps.accept("synced");
            for (Item item : items) {
                Files.deleteIfExists(folder.staged(item.id()));
            }
            folder.removeEmpty();
        } catch (IOException e) {
            throw new IOException("the batch is committed, so all of its items are enqueued and stay so (housekeeping"
                    + " finishes it), but " + e.getMessage(), e);
        }
        finished = true;
        live.ended(folder.name);
        ids.forEach(arrivals);
        return ids;
    }

    private void link(Item item) throws IOException {
        switch (SharedNames.link(folder.staged(item.id()), layout.file(SpoolFolder.PENDING, item.id()))) {
            case LINKED:
                return;
            case TAKEN:
                throw new IOException("pending/" + item.id() + " was dropped in by another program while the batch was"
                        + " staged (its id was reserved): remove it");
            default:
                throw new IOException("the staged payload of item '" + item.id() + "' vanished from " + folder.dir);
        }
    }

    /** Without a commit: everything staged goes, reservations included. After one, the rest is housekeeping's. */
    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        try (syncs) { // given back last: what it throws never keeps the roll-back from running
            if (open != null) {
                open.close();
                open = null;
            }
            if (!committed) {
                try {
                    rollBack();
                } catch (IOException | RuntimeException e) {
                    live.gaveUp(folder.name); // its ids stay known only until the next housekeeping
                    throw e;
                }
            } else {
                live.gaveUp(folder.name);
                LOG.warnf("batch %s is committed but was left unfinished: the next housekeeping rolls it forward",
                        folder.dir);
            }
        } finally {
            finished = true;
            live.ended(folder.name);
        }
    }

    /**
     * Without a listing or a read, so it works when descriptors ran out: its reservations released by
     * their inodes, its files removed by the names it gave them, then its folder. A failed release is owed
     * ({@link Reservations#release(Reservations.Made)}); a folder holding more than this batch wrote is
     * left to the listing roll-back.
     */
    private void rollBack() throws IOException {
        IOException failed = null;
        for (Reservations.Made made : reserved) {
            try {
                reservations.release(made);
            } catch (IOException e) {
                failed = failed == null ? e : failed;
            }
        }
        for (Item item : items) {
            Files.deleteIfExists(folder.staged(item.id()));
        }
        if (openPath != null) {
            Files.deleteIfExists(openPath);
        }
        try {
            Files.deleteIfExists(folder.dir);
        } catch (java.nio.file.DirectoryNotEmptyException e) {
            BatchRecovery.rollBack(folder, reservations, false);
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Writes to the open payload, refusing more than max-bytes; every write refreshes its modification time. */
    private final class PayloadOut extends OutputStream {
        private long written;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            written += len;
            if (written > maxBytes) {
                throw new ItemStore.PayloadTooLargeException(maxBytes);
            }
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                open.write(buffer);
            }
        }
    }
}
