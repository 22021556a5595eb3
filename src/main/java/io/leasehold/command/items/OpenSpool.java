package io.leasehold.command.items;

import io.leasehold.lease.Holders;
import io.leasehold.clock.SystemClock;
import io.leasehold.command.CommandConfig;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.LeaseTerms;
import io.leasehold.jetstream.JetStreamBackend;
import io.leasehold.spool.BulkActions;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.PosixDirectorySync;
import io.leasehold.spool.PosixItemStore;
import io.leasehold.spool.PosixSpool;
import io.leasehold.spool.SpoolAnomalies;
import io.leasehold.spool.SpoolFolder;
import io.leasehold.spool.SpoolLayout;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The spool opened for one command: the service's own store ({@link PosixItemStore} on the directory, the
 * {@link JetStreamBackend}'s on JetStream) and {@link BulkActions} on it, built from the same configuration
 * keys, so every move is the protocol's own (renames, compare-and-sets, that decide against running
 * instances). A relative {@code leasehold.spool.dir} is the working directory's, as for the service.
 */
final class OpenSpool implements AutoCloseable {

    /** Why a command cannot open the spool: one line on stderr, exit 1. */
    static final class Unusable extends IOException {
        Unusable(String message) {
            super(message);
        }
    }

    final ItemStore store;
    final BulkActions bulk;
    final SpoolAnomalies anomalies = new SpoolAnomalies();
    final SystemClock clock;
    final long maxBytes;
    /** What the store runs on: the directory store's recount, or the JetStream backend and its connection. */
    private final AutoCloseable backend;
    private final ExecutorService workers;
    private final Scan scan;

    private OpenSpool(SystemClock clock, long maxBytes, Opener opener) throws IOException {
        this.clock = clock;
        this.maxBytes = maxBytes;
        Opened opened = opener.open(this); // the clock is the command's: it closes it, on a failure too
        this.store = opened.store();
        this.backend = opened.backend();
        this.scan = opened.scan();
        // Unbounded: a bulk step waits for the moves it handed to other workers, so a fixed few could all wait.
        this.workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "leasehold-bulk");
            t.setDaemon(true);
            return t;
        });
        this.bulk = new BulkActions(store, workers, clock, BulkActions.Tally.NONE);
    }

    private record Opened(ItemStore store, AutoCloseable backend, Scan scan) {
    }

    /** Reads the spool as a drain does, reporting what it leaves alone to {@link #anomalies}. */
    private interface Scan {
        void run() throws IOException;
    }

    private interface Opener {
        Opened open(OpenSpool spool) throws IOException;
    }

    /**
     * The configured spool; with {@code create} its folders are made when missing, as the service makes them
     * at start (an enqueue), else a missing spool is refused (a look or a move never makes one by a typo).
     */
    static OpenSpool open(CommandConfig config, boolean create, SystemClock clock) throws IOException {
        LeaseholdConfig c = config.mapped();
        // Both were checked when the configuration was read (ConfigCheck.requireForCommands), before any spool is looked for.
        long maxBytes = c.item().maxBytes().asLongValue();
        LeaseTerms terms = ConfigRecords.leaseTerms(c);
        if (c.spool().kind().equals("jetstream")) {
            // The service's own backend on a connection of this command's (its buckets made when missing, as
            // the service makes them); listings wait for the ledger's first picture.
            return new OpenSpool(clock, maxBytes, spool -> {
                JetStreamBackend js = JetStreamBackend.open(c, spool.clock, terms,
                        Holders.thisProcess("leasehold-items", spool.clock).instance());
                return new Opened(js.store(), js, () -> {
                });
            });
        }
        SpoolLayout layout = new SpoolLayout(config.spoolDir());
        if (create) {
            try {
                layout.createFolders();
            } catch (FileSystemException e) { // named as the service names it at start
                throw new Unusable("leasehold.spool.dir (" + config.spoolDir() + ") is not usable: " + CommandFailures.said(e));
            }
        } else {
            // The protocol's five folders (docs/protocol.md, Folders); the bookkeeping ones a store makes as it needs them.
            for (SpoolFolder folder : List.of(SpoolFolder.TMP, SpoolFolder.PENDING, SpoolFolder.CLAIMED,
                    SpoolFolder.DONE, SpoolFolder.FAILED)) {
                if (!Files.exists(layout.folder(folder), LinkOption.NOFOLLOW_LINKS)) {
                    throw new Unusable("no spool at " + layout.root() + " (leasehold.spool.dir" + (config.spoolDirSet()
                            ? "" : " not set, so ./spool") + "; no " + folder.dirName() + "/ there)");
                }
            }
            for (SpoolFolder folder : SpoolFolder.values()) { // as the service refuses them: never through a link
                if (Files.exists(layout.folder(folder), LinkOption.NOFOLLOW_LINKS)) {
                    SpoolLayout.requireOwnDirectory(layout.folder(folder));
                }
            }
        }
        return new OpenSpool(clock, maxBytes, spool -> {
            PosixSpool posix = new PosixSpool(layout, spool.anomalies, spool.clock, maxBytes, Holders.tag());
            PosixItemStore store = new PosixItemStore(layout, posix, terms, spool.clock, new PosixDirectorySync());
            // The drain's own reads of pending/ and claimed/, which is where the service learns its ignored entries.
            return new Opened(store, store, () -> {
                posix.pendingBatch(Integer.MAX_VALUE);
                posix.claims();
            });
        });
    }

    /** Fills {@link #anomalies} as a service's drain would: the entries of pending/ and claimed/ that are not items. */
    void scanForAnomalies() throws IOException {
        scan.run();
    }

    @Override
    public void close() throws Exception {
        workers.shutdown();
        backend.close(); // the clock is the command's, closed by it
    }
}
