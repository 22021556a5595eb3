package io.leasehold.app;

import io.leasehold.backend.SpoolBackends;
import io.leasehold.clock.TickingClock;
import io.leasehold.config.ConfigCheck;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.Clock;
import io.leasehold.core.LeaseTerms;
import io.leasehold.directory.DirectoryBackend;
import io.leasehold.directory.DirectorySync;
import io.leasehold.directory.PosixDirectorySync;
import io.leasehold.directory.SpoolEpochFloor;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.drain.DrainEvents;
import io.leasehold.drain.DrainSettings;
import io.leasehold.drain.DrainPause;
import io.leasehold.drain.Drainer;
import io.leasehold.drain.OutputKeeping;
import io.leasehold.handler.Handler;
import io.leasehold.lease.EpochFloor;
import io.leasehold.lease.Holders;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.BulkActions;
import io.leasehold.spool.AttemptOutputs;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.Spool;
import io.leasehold.spool.SpoolBackend;
import io.leasehold.stats.ActivityStats;
import io.leasehold.spool.SpoolUpkeep;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Typed;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.IOException;

/** Builds the spool and the drain from the configuration; the one place they are put together. */
public class SpoolWiring {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SpoolWiring.class);

    @Produces
    @Singleton
    LeaseTerms leaseTerms(LeaseholdConfig config) {
        ConfigCheck.requireAtStart(config);
        return ConfigRecords.leaseTerms(config);
    }

    @Produces
    @Singleton
    DrainSettings drainSettings(LeaseholdConfig config) {
        ConfigCheck.requireAtStart(config);
        return ConfigRecords.drainSettings(config);
    }

    /** The directory under leasehold.spool.dir: the directory spool's, and on either kind the epoch floor's home. */
    @Produces
    @Singleton
    SpoolLayout layout(LeaseholdConfig config) {
        return SpoolBackends.layout(config);
    }

    /** fsync(2) of a folder; a test profile may record the syncs around it. */
    @Produces
    @Singleton
    DirectorySync directorySync() {
        return new PosixDirectorySync();
    }

    /**
     * The backend leasehold.spool.kind chose, built as the command line builds it. {@code checked} is asked
     * for so that the configuration is checked at start (ConfigCheck.requireAtStart) before anything opens.
     */
    @Produces
    @Singleton
    SpoolBackend backend(LeaseholdConfig config, TickingClock clock, LeaseTerms checked, DirectorySync sync) {
        try {
            return SpoolBackends.open(config, clock, Holders.thisProcess(clock).instance(), sync);
        } catch (IOException e) { // one line, as Quarkus prints a ConfigurationException: no stack trace
            throw new io.quarkus.runtime.configuration.ConfigurationException("leasehold: the JetStream spool"
                    + " (leasehold.nats.url, leasehold.spool.jetstream.bucket) cannot be opened: " + e.getMessage());
        }
    }

    /**
     * Which way a directory spool settles, so an operator need not guess; said once the start is over (a start
     * that fails later in the boot prints its one line and nothing else).
     */
    void sayHowItSettles(@Observes @Priority(Integer.MAX_VALUE) StartupEvent start, SpoolBackend backend) {
        if (backend instanceof DirectoryBackend directory) {
            LOG.info(howItWrites(directory.layout().root(), directory.settlesByRename(),
                    directory.store().batchesSyncBySyncfs()));
        }
    }

    /**
     * The start's line on a directory spool's ways of writing (docs/operations.md quotes its three forms): with
     * the Linux calls and a local filesystem, both by one call; without the calls (Java 17 to 21, linux-calls
     * off), neither, and what they need; with the calls on another filesystem, renameat2 alone, and why not syncfs.
     */
    static String howItWrites(java.nio.file.Path root, boolean rename, boolean syncfs) {
        String how = "directory spool " + root + ": claims are settled " + (rename ? "by one renameat2" : "by link and unlink")
                + ", batches synced " + (syncfs ? "by one syncfs" : "by an fsync per item") + " ";
        if (rename && syncfs) {
            return how + "(leasehold.spool.linux-calls)";
        }
        return how + (rename ? "(syncfs needs a local filesystem, ext4, xfs, btrfs or tmpfs, and Linux 5.17 on x86-64 or arm64)"
                : "(renameat2 and syncfs need Java 22 or later and leasehold.spool.linux-calls=true)");
    }

    void closeBackend(@Disposes SpoolBackend backend) throws InterruptedException {
        backend.close(); // its threads, and on JetStream its connection
    }

    /** The drain's port. */
    @Produces
    @Singleton
    Spool spool(SpoolBackend backend) {
        return backend.spool();
    }

    /** The API's port. */
    @Produces
    @Singleton
    ItemStore itemStore(SpoolBackend backend) {
        return backend.store();
    }

    /** The attempts' outputs, which the API reads. */
    @Produces
    @Singleton
    AttemptOutputs outputs(SpoolBackend backend) {
        return backend.outputs();
    }

    @Produces
    @Singleton
    SpoolUpkeep upkeep(SpoolBackend backend) {
        return backend.upkeep();
    }

    /** Bulk retry and purge (the API's, and retention's), a batch at a time on the worker pool. */
    @Produces
    @Singleton
    BulkActions bulkActions(ItemStore store, Clock clock, BulkActions.Tally tally) {
        return new BulkActions(store, Infrastructure.getDefaultWorkerPool(), clock, tally);
    }

    /** Kept beside the items, not in the lease's store: epochs never go backwards when that is wiped. */
    @Produces
    @Singleton
    EpochFloor epochFloor(SpoolLayout layout) {
        return new SpoolEpochFloor(layout.root());
    }

    /** Arrivals dropped in by other programs, seen at once instead of at the next poll; only a drain that runs on its own needs them. */
    @Produces
    @Singleton
    ArrivalWatch arrivals(SpoolBackend backend, LeaseholdConfig config) {
        return config.drain().auto() ? backend.arrivals() : ArrivalWatch.NONE;
    }

    @Produces
    @Singleton
    Drainer drainer(Spool spool, TickingClock clock, LeaseTerms terms, DrainSettings settings, @Selected Handler handler,
            ArrivalWatch arrivals, LeaseholdConfig config, DrainEvents events, LeaseService lease, RenewalThread renewals,
            SpoolBackend backend, ActivityStats stats) {
        return new Drainer(spool, clock, terms, settings, handler, lease.gate(), Infrastructure.getDefaultWorkerPool(),
                renewals, arrivals, DrainEvents.both(events, stats), config.drain().auto(),
                new DrainPause(backend.drainSwitch(), clock), new OutputKeeping(backend.outputs(), config.handler().name()));
    }

    /** This instance's activity per minute, for GET /stats and the page's charts. */
    @Produces
    @Singleton
    @Typed(ActivityStats.class) // not a DrainEvents bean: the drainer is told both, the metrics' and these
    ActivityStats activity(TickingClock clock, ItemStore store) {
        return new ActivityStats(clock, store::countsNow);
    }

    void closeActivity(@Disposes ActivityStats stats) {
        stats.close();
    }
}
