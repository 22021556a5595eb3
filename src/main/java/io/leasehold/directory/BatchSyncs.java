package io.leasehold.directory;

import io.leasehold.directory.linux.LinuxCalls;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * How a batch's staged payloads reach the disk before its commit marker is written. Either an fsync each,
 * begun as each line ends, on a few threads shared by every batch; or, where Linux's {@code syncfs} can be
 * had ({@link LinuxCalls#syncsFileSystems}) on a local filesystem, one {@code syncfs} of the spool's
 * filesystem at commit, through a descriptor of tmp/ opened before the batch's folder is made, so that a
 * write-back error of any of its payloads is answered (docs/protocol.md#batches).
 */
final class BatchSyncs {

    /**
     * Filesystems whose syncfs writes every file's data and metadata and flushes the device, as fsync does.
     * A network or stacked filesystem (NFS, FUSE, overlayfs) keeps the fsync per payload.
     */
    private static final Set<String> LOCAL = Set.of("ext4", "xfs", "btrfs", "tmpfs");
    /**
     * Staged payloads are fsynced on a few threads while the next lines are read: concurrent fsyncs share
     * the device's cache flushes, one after another each pays one. Few, and shared by every batch, so they
     * hold at most that many descriptors beyond the budget's per-connection share.
     */
    private static final int FSYNC_THREADS = 4;
    private static final ExecutorService FSYNCS = Executors.newFixedThreadPool(FSYNC_THREADS, task -> {
        Thread thread = new Thread(task, "leasehold-batch-fsync");
        thread.setDaemon(true);
        return thread;
    });

    private static final Logger LOG = Logger.getLogger(BatchSyncs.class);

    /** The calls, when they have a syncfs that reports; whether the spool's filesystem suits it is {@link #local}. */
    private final Optional<LinuxCalls> syncfs;
    private final Path root;
    /** Whether the spool is on a local filesystem: looked at once its folders exist (a new spool's are made later). */
    private volatile Boolean local;
    /** Whether a batch left to the fsyncs for want of a descriptor was said already (once is enough). */
    private final AtomicBoolean saidNoDescriptor = new AtomicBoolean();

    private BatchSyncs(Optional<LinuxCalls> syncfs, Path root) {
        this.syncfs = syncfs;
        this.root = root;
    }

    /** For the spool at {@code root}: by syncfs where the calls have it and the filesystem is a local one. */
    static BatchSyncs forSpool(Path root, Optional<LinuxCalls> linux) {
        return new BatchSyncs(linux.filter(LinuxCalls::syncsFileSystems), root);
    }

    /** Whether batches sync by one syncfs (else by an fsync per payload). */
    boolean bySyncfs() {
        return syncfs.isPresent() && onLocalFilesystem();
    }

    private boolean onLocalFilesystem() {
        Boolean known = local;
        if (known == null) {
            try {
                known = LOCAL.contains(Files.getFileStore(root).type());
            } catch (IOException e) {
                return false; // not there yet, or unreadable: fsyncs this time, and look again at the next batch
            }
            local = known;
        }
        return known;
    }

    /**
     * One batch's syncs, begun before anything of the batch is written: {@code tmp} is the spool's tmp/, on the
     * filesystem every item of the spool is on (a link into pending/ never crosses filesystems).
     */
    Batch begin(Path tmp) {
        if (!bySyncfs()) {
            return new Batch(null, -1);
        }
        int fd = syncfs.get().openDirectory(tmp);
        if (fd < 0) { // the open-files limit reached, say: this batch is left to the fsyncs
            if (saidNoDescriptor.compareAndSet(false, true)) {
                LOG.warnf("a batch could not open %s to sync by syncfs (errno %d): it syncs by an fsync per item, as"
                        + " will any other that meets this (said once)", tmp, -fd);
            }
            return new Batch(null, -1);
        }
        return new Batch(syncfs.get(), fd);
    }

    /** The syncs of one batch, used by its one thread. */
    static final class Batch implements AutoCloseable {
        private final LinuxCalls calls;
        private int fd;
        private final List<Future<Void>> fsyncs = new ArrayList<>();
        /** The fsyncs begun: none when the batch syncs by syncfs (a test's count). */
        int fsyncsBegun;

        private Batch(LinuxCalls calls, int fd) {
            this.calls = calls;
            this.fd = fd;
        }

        /** A payload is written whole and closed: its fsync begins now, unless the batch syncs by syncfs. */
        void written(Path staged) {
            if (calls == null) {
                fsyncsBegun++;
                fsyncs.add(FSYNCS.submit(() -> {
                    try (FileChannel channel = FileChannel.open(staged, StandardOpenOption.READ)) {
                        channel.force(true);
                    }
                    return null;
                }));
            }
        }

        /** Every payload written so far is on disk once this returns. */
        void awaitDurable() throws IOException {
            if (calls != null) {
                int errno = calls.syncFileSystem(fd);
                if (errno != 0) {
                    throw new IOException("syncfs of the spool's filesystem failed (errno " + errno + "): the batch's"
                            + " payloads may not be on disk");
                }
                return;
            }
            boolean interrupted = false;
            try {
                for (Future<Void> fsync : fsyncs) {
                    while (true) {
                        try {
                            fsync.get();
                            break;
                        } catch (InterruptedException e) {
                            interrupted = true; // the commit needs the outcome: wait on
                        } catch (ExecutionException e) {
                            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                        }
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** Gives the descriptor back; more than once does nothing. */
        @Override
        public void close() {
            if (calls != null && fd >= 0) {
                int closing = fd;
                fd = -1; // first: a close that throws is never tried again on a number that may be reused
                calls.close(closing);
            }
        }
    }
}
