package io.leasehold.app;

import io.leasehold.clock.TickingClock;
import io.leasehold.config.ConfigCheck;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.Clock;
import io.leasehold.core.LeaseTerms;
import io.leasehold.drain.DrainEvents;
import io.leasehold.drain.DrainSettings;
import io.leasehold.drain.Drainer;
import io.leasehold.handler.Handler;
import io.leasehold.jetstream.JetStreamBackend;
import io.leasehold.lease.EpochFloor;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.BulkActions;
import io.leasehold.spool.DirectorySync;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.NioArrivalWatch;
import io.leasehold.spool.PosixDirectorySync;
import io.leasehold.spool.PosixItemStore;
import io.leasehold.spool.PosixSpool;
import io.leasehold.spool.PosixSpoolUpkeep;
import io.leasehold.spool.Spool;
import io.leasehold.spool.SpoolAnomalies;
import io.leasehold.spool.SpoolEpochFloor;
import io.leasehold.spool.SpoolLayout;
import io.leasehold.spool.SpoolUpkeep;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Path;
import io.leasehold.lease.Holders;

/** Builds the spool and the drain from the configuration; the one place they are put together. */
public class SpoolWiring {

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

    @Produces
    @Singleton
    SpoolLayout layout(LeaseholdConfig config) {
        return new SpoolLayout(Path.of(config.spool().dir()));
    }

    @Produces
    @Singleton
    SpoolAnomalies anomalies() {
        return new SpoolAnomalies();
    }

    @Produces
    @Singleton
    @Typed(PosixSpool.class)
    PosixSpool posixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, LeaseholdConfig config) {
        // The same bound as the API's: a payload dropped in by another program is never read past it.
        return new PosixSpool(layout, anomalies, clock, config.item().maxBytes().asLongValue(), Holders.tag());
    }

    /** fsync(2) of a folder; a test profile may record the syncs around it. */
    @Produces
    @Singleton
    DirectorySync directorySync() {
        return new PosixDirectorySync();
    }

    @Produces
    @Singleton
    @Typed(PosixItemStore.class)
    PosixItemStore posixItemStore(SpoolLayout layout, PosixSpool spool, LeaseTerms terms, TickingClock clock,
            DirectorySync sync) {
        return new PosixItemStore(layout, spool, terms, clock, sync);
    }

    void closeItemStore(@Disposes PosixItemStore store) {
        store.close(); // its recount thread and ticks
    }

    /** The JetStream spool's adapters on a connection of their own; made only when that spool is chosen. */
    @Produces
    @Singleton
    JetStreamBackend jetStream(LeaseholdConfig config, Clock clock, LeaseTerms terms) {
        try {
            return JetStreamBackend.open(config, clock, terms, Holders.thisProcess(clock).instance());
        } catch (IOException e) { // one line, as Quarkus prints a ConfigurationException: no stack trace
            throw new io.quarkus.runtime.configuration.ConfigurationException("leasehold: the JetStream spool"
                    + " (leasehold.nats.url, leasehold.spool.jetstream.bucket) cannot be opened: " + e.getMessage());
        }
    }

    void closeJetStream(@Disposes JetStreamBackend backend) throws InterruptedException {
        backend.close();
    }

    private static boolean jetStream(LeaseholdConfig config) {
        return config.spool().kind().equals("jetstream");
    }

    /** The drain's port, on the backend leasehold.spool.kind chose. */
    @Produces
    @Singleton
    Spool spool(LeaseholdConfig config, Instance<PosixSpool> posix, Instance<JetStreamBackend> js) {
        return jetStream(config) ? js.get().spool() : posix.get();
    }

    /** The API's port, on the backend leasehold.spool.kind chose. */
    @Produces
    @Singleton
    ItemStore itemStore(LeaseholdConfig config, Instance<PosixItemStore> posix, Instance<JetStreamBackend> js) {
        return jetStream(config) ? js.get().store() : posix.get();
    }

    @Produces
    @Singleton
    SpoolUpkeep upkeep(LeaseholdConfig config, Instance<SpoolLayout> layout, Instance<PosixSpool> spool,
            Instance<PosixItemStore> store, Instance<JetStreamBackend> js) {
        return jetStream(config) ? js.get().upkeep() : new PosixSpoolUpkeep(layout.get(), spool.get(), store.get());
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
    ArrivalWatch arrivals(Instance<SpoolLayout> layout, LeaseholdConfig config, Instance<JetStreamBackend> js) {
        if (!config.drain().auto()) {
            return ArrivalWatch.NONE;
        }
        return jetStream(config) ? js.get().arrivals() : new NioArrivalWatch(layout.get());
    }

    @Produces
    @Singleton
    Drainer drainer(Spool spool, TickingClock clock, LeaseTerms terms, DrainSettings settings, @Selected Handler handler,
            ArrivalWatch arrivals, LeaseholdConfig config, DrainEvents events, LeaseService lease, RenewalThread renewals) {
        return new Drainer(spool, clock, terms, settings, handler, lease.gate(), Infrastructure.getDefaultWorkerPool(),
                renewals, arrivals, events, config.drain().auto());
    }
}
