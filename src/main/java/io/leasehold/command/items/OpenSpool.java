package io.leasehold.command.items;

import io.leasehold.backend.SpoolBackends;
import io.leasehold.clock.SystemClock;
import io.leasehold.command.CommandConfig;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.directory.PosixDirectorySync;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.Holders;
import io.leasehold.schedule.ScheduleEvents;
import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.spool.Anomaly;
import io.leasehold.spool.BulkActions;
import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.SpoolBackend;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The spool opened for one command: the service's own backend, built by the same factory
 * ({@link SpoolBackends}) from the same configuration keys, and {@link BulkActions} on its store, so every
 * move is the protocol's own (renames, compare-and-sets, that decide against running instances). A
 * relative {@code leasehold.spool.dir} is the working directory's, as for the service.
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
    final SystemClock clock;
    final long maxBytes;
    /** The configuration the spool was opened with (the schedules' commands read theirs from it). */
    final LeaseholdConfig config;
    /** What the store runs on: the directory store's recount, or the JetStream bucket and its connection. */
    private final SpoolBackend backend;
    private final ExecutorService workers;

    private OpenSpool(SystemClock clock, long maxBytes, SpoolBackend backend, LeaseholdConfig config) {
        this.config = config;
        this.clock = clock; // the command's: it closes it, on a failure too
        this.maxBytes = maxBytes;
        this.backend = backend;
        this.store = backend.store();
        // Unbounded: a bulk step waits for the moves it handed to other workers, so a fixed few could all wait.
        this.workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "leasehold-bulk");
            t.setDaemon(true);
            return t;
        });
        this.bulk = new BulkActions(store, workers, clock, BulkActions.Tally.NONE);
    }

    /**
     * The configured spool; with {@code create} its folders are made when missing, as the service makes them
     * at start (an enqueue), else a missing spool is refused (a look or a move never makes one by a typo).
     */
    static OpenSpool open(CommandConfig config, boolean create, SystemClock clock) throws IOException {
        LeaseholdConfig c = config.mapped();
        // Both were checked when the configuration was read (ConfigCheck.requireForCommands), before any spool is looked for.
        long maxBytes = c.item().maxBytes().asLongValue();
        if (!SpoolBackends.jetStream(c)) {
            checkDirectory(config, create);
        }
        // On JetStream, a connection of this command's (its buckets made when missing, as the service makes
        // them); listings wait for the ledger's first picture.
        SpoolBackend backend = SpoolBackends.open(c, clock, Holders.thisProcess("leasehold-items", clock).instance(),
                new PosixDirectorySync());
        return new OpenSpool(clock, maxBytes, backend, c);
    }

    /**
     * The configured schedules on this spool, as a service sees them, for a command: it reads marks and pauses,
     * fires by hand, pauses and resumes, and never fires a fire time (its gate refuses: that is a holder's).
     */
    /** The fleet's pause of the drain, in this spool. */
    DrainSwitch drainSwitch() {
        return backend.drainSwitch();
    }

    ScheduleFiring schedules() {
        return new ScheduleFiring(ConfigRecords.schedules(config), backend.schedules(), store, () -> {
            throw new ActRefused("a command never fires a schedule's fire times");
        }, clock, config.claim().maxSkew(), maxBytes, "command line", ScheduleEvents.NONE);
    }

    /** The spool directory as the command needs it: made when {@code create}, else there and never through a link. */
    private static void checkDirectory(CommandConfig config, boolean create) throws IOException {
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
    }

    /** What a service's drain would leave alone as not items, looked for afresh: a new command has seen nothing yet. */
    List<Anomaly> anomalies() throws IOException {
        backend.lookForAnomalies();
        return backend.anomalies();
    }

    @Override
    public void close() throws Exception {
        workers.shutdown();
        backend.close(); // the clock is the command's, closed by it
    }
}
