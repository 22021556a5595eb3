package io.leasehold.app;

import io.leasehold.config.ConfigCheck;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.Backoff;
import io.leasehold.core.Clock;
import io.leasehold.core.LeaseTerms;
import io.leasehold.drain.DrainEvents;
import io.leasehold.drain.DrainSettings;
import io.leasehold.drain.Drainer;
import io.leasehold.handler.Handler;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.DirectorySync;
import io.leasehold.spool.NioArrivalWatch;
import io.leasehold.spool.PosixDirectorySync;
import io.leasehold.spool.PosixItemStore;
import io.leasehold.spool.PosixSpool;
import io.leasehold.spool.SpoolAnomalies;
import io.leasehold.spool.SpoolLayout;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;

/** Builds the spool and the drain from the configuration; the one place they are put together. */
public class SpoolWiring {

    @Produces
    @Singleton
    LeaseTerms leaseTerms(LeaseholdConfig config) {
        ConfigCheck.require(config);
        LeaseholdConfig.ClaimConfig claim = config.claim();
        return new LeaseTerms(claim.lease(), claim.renewalsPerLease(), claim.maxSkew());
    }

    @Produces
    @Singleton
    DrainSettings drainSettings(LeaseholdConfig config) {
        ConfigCheck.require(config);
        LeaseholdConfig.DrainConfig drain = config.drain();
        return new DrainSettings(drain.concurrency(), drain.maxAttempts(), drain.pollInterval(),
                config.handler().timeout(), new Backoff(drain.backoffInitial(), drain.backoffMax()),
                drain.shutdownTimeout(), config.claim().takeover());
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
    PosixSpool spool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, LeaseholdConfig config) {
        // The same bound as the API's: a payload dropped in by another program is never read past it.
        return new PosixSpool(layout, anomalies, clock, config.item().maxBytes().asLongValue());
    }

    /** fsync(2) of a folder; a test profile may record the syncs around it. */
    @Produces
    @Singleton
    DirectorySync directorySync() {
        return new PosixDirectorySync();
    }

    @Produces
    @Singleton
    PosixItemStore itemStore(SpoolLayout layout, PosixSpool spool, LeaseTerms terms, Clock clock, DirectorySync sync) {
        return new PosixItemStore(layout, spool, terms, clock, sync);
    }

    void closeItemStore(@Disposes PosixItemStore store) {
        store.close(); // its recount thread and ticks
    }

    @Produces
    @Singleton
    Drainer drainer(PosixSpool spool, Clock clock, LeaseTerms terms, DrainSettings settings, @Selected Handler handler,
            SpoolLayout layout, LeaseholdConfig config, DrainEvents events, LeaseService lease, RenewalThread renewals) {
        ArrivalWatch arrivals = config.drain().auto() ? new NioArrivalWatch(layout) : ArrivalWatch.NONE;
        return new Drainer(spool, clock, terms, settings, handler, lease.gate(), Infrastructure.getDefaultWorkerPool(),
                renewals, arrivals, events, config.drain().auto());
    }
}
