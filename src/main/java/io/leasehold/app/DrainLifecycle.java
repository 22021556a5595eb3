package io.leasehold.app;

import io.leasehold.core.DurationText;
import io.leasehold.clock.TickingClock;
import io.leasehold.config.ConfigCheck;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.TakeoverRule;
import io.leasehold.drain.Drainer;
import io.leasehold.lease.Borrowing;
import io.leasehold.lease.LeaseEvents;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.SpoolUpkeep;
import io.leasehold.spool.Staleness;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/** Starts the drain when the service starts, and stops it cleanly when the service stops. */
@Singleton
public class DrainLifecycle {

    private static final Logger LOG = Logger.getLogger(DrainLifecycle.class);
    /** docs/operations.md, Exit statuses: the controller lease was lost. */
    static final int EXIT_LEASE_LOST = 3;

    private final SpoolUpkeep upkeep;
    private final ItemStore store;
    private final Drainer drainer;
    private final LeaseholdConfig config;
    private final TickingClock clock;
    private final LeaseService lease;
    private final LeaseThreads leaseThreads;
    private final Retention retention;
    /** Housekeeping runs on one worker at a time (a tick finishes before the next fires). */
    private volatile Instant lastSweep;

    public DrainLifecycle(SpoolUpkeep upkeep, ItemStore store, Drainer drainer, LeaseholdConfig config,
            TickingClock clock, LeaseService lease, LeaseThreads leaseThreads, Retention retention) {
        this.retention = retention;
        this.leaseThreads = leaseThreads;
        this.lease = lease;
        this.upkeep = upkeep;
        this.store = store;
        this.drainer = drainer;
        this.config = config;
        this.clock = clock;
    }

    void onStart(@Observes StartupEvent event) {
        try {
            int removed = upkeep.open(staleness(), config.spool().recountEvery());
            if (removed > 0) {
                LOG.infof("removed %d leftovers of crashed writers from %s", removed, upkeep.where());
            }
        } catch (IOException e) {
            String key = config.spool().kind().equals("jetstream") ? "leasehold.spool.jetstream.bucket" : "leasehold.spool.dir";
            // One line, as for any other setting that cannot be used (Quarkus prints a ConfigurationException alone).
            throw new ConfigCheck.InvalidConfigException(key + " (" + upkeep.where() + ") is not usable: "
                    + said(e)).atStart();
        }
        // The lease's first step comes before the first claim: the drain starts knowing its standing.
        lease.start(this::leaseLost, this::borrowLapsed);
        // An enqueue's item becomes claimable only after its upload name is unlinked, which no watch sees.
        store.whenArrived(drainer::nudge);
        drainer.start();
        clock.every("leasehold-housekeeping", config.spool().housekeepingEvery(), this::housekeeping);
        if (!config.drain().auto() && config.claim().takeover() == TakeoverRule.OBSERVED) {
            LOG.warnf("leasehold.drain.auto=false with leasehold.claim.takeover=observed: a drain pass takes over a "
                    + "stopped holder's claims only after watching them for %s; passes of instances that start "
                    + "cold (scale to zero) want leasehold.claim.takeover=reading", config.claim().lease()
                    .dividedBy(config.claim().renewalsPerLease()).multipliedBy(2));
        }
        LOG.infof("draining %s with handler '%s', %d at a time, claim lease %s", upkeep.where(),
                config.handler().name(), config.drain().concurrency(), DurationText.of(config.claim().lease()));
    }

    /**
     * Leftovers of other writers: old by the wall clock, and seen unchanged here for twice upload-timeout
     * (a body's last read may block past its deadline, then its fsync, link and sync follow).
     */
    private Staleness staleness() {
        return new Staleness(clock.now().minus(config.spool().tmpMaxAge()), config.item().uploadTimeout().multipliedBy(2));
    }

    /**
     * Leftovers of crashed writers in tmp/, and junk that was cleared away, are forgotten now and then;
     * bookkeeping nothing needs any more once per tmp-max-age (it looks at every reservation); then
     * retention's slice of settled items past their max age.
     */
    private Uni<Void> housekeeping() {
        return Uni.createFrom().item(() -> {
            try {
                Staleness staleness = staleness();
                boolean sweep = lastSweep == null || !lastSweep.isAfter(staleness.cutoff());
                Instant began = clock.now();
                int removed = upkeep.tidy(staleness, sweep);
                if (sweep) {
                    lastSweep = began; // only a tidy that finished counts: a failed one sweeps again next tick
                }
                if (removed > 0) {
                    LOG.infof("removed %d leftovers of crashed writers, enqueues and purges from %s", removed,
                            upkeep.where());
                }
            } catch (IOException e) {
                LOG.warnf("housekeeping of %s failed: %s", upkeep.where(), e.getMessage());
            }
            return (Void) null;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()).chain(retention::tick);
    }

    /**
     * Stop every act at once, here on the lease's own thread (its deadline timer as a rule): attempts are
     * cancelled, which KILLs exec children, well before the loss's KILL time. Only then hand the claims back
     * (moves that may wait out a dead link) and exit 3 so the supervisor restarts a candidate.
     */
    private void leaseLost(LeaseEvents.Loss loss) {
        drainer.stopActs();
        LOG.errorf("exiting with status %d: a supervisor (systemd, Kubernetes, Knative) restarts this instance as a"
                + " candidate for the lease; run the service under one (docs/lease.md)", EXIT_LEASE_LOST);
        leaseThreads.execute(() -> { // never queued behind the work that fills the worker pool
            drainer.stopNow();
            Quarkus.asyncExit(EXIT_LEASE_LOST);
        });
    }

    /**
     * The holder's epoch this waiting instance acted under is no longer lent: its attempts end now, here on
     * the lease's thread (an exec child's group is KILLed at once, well before the lapse's KILL time), and
     * their claims go back to pending/ afterwards on another; the instance goes on serving. No attempt
     * slips by: the gate lends the epoch no more before this runs, and a run that was lent it is either
     * still in its look (stopped before it acts) or has its attempt published (cancelled).
     */
    private void borrowLapsed(Borrowing.Lapse lapse) {
        drainer.stopActsUnder(lapse.epoch());
        leaseThreads.execute(drainer::handBackStopped);
    }

    void onStop(@Observes ShutdownEvent event) {
        drainer.stop();
        lease.stop();
    }

    /** What went wrong, naming the file: a FileSystemException's message may be the bare path (access denied). */
    private static String said(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() == null) {
            String kind = f.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2")
                    .toLowerCase(java.util.Locale.ROOT);
            return f.getFile() + ": " + kind;
        }
        return String.valueOf(e.getMessage());
    }
}
