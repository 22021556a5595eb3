package io.leasehold.command;

import io.leasehold.app.Holders;
import io.leasehold.clock.ScheduledSystemClock;
import io.leasehold.lease.ActRefused;
import io.leasehold.app.LoggedLeaseEvents;
import io.leasehold.lease.ControllerLease;
import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.lease.Standing;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsKvLeaseStore;
import io.leasehold.nats.NatsSettings;
import io.leasehold.spool.SpoolEpochFloor;
import io.leasehold.spool.SpoolLayout;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.logging.Logger;

/**
 * {@code lease exec}: runs CMD under the epoch it may act under, read right before it starts. No bus:
 * epoch 0. Someone holds the lease: that holder's epoch, watched while CMD runs. Nobody does: this
 * process takes the lease for the run, renews it, and gives it back after. When the epoch goes stale
 * CMD gets TERM, then KILL. The answer is CMD's exit status; {@link #NO_EPOCH} when CMD never started.
 */
final class ExecCommand {

    private static final Logger LOG = Logger.getLogger(ExecCommand.class);
    /** CMD did not start: the bus could not be reached, or no epoch could be had. */
    static final int NO_EPOCH = 1;
    static final Duration GRACE = Duration.ofSeconds(5);
    /** A take can lose a race to another instance; then its epoch is borrowed instead. */
    private static final int TRIES = 3;

    private final Invocation invocation;
    private final CommandConfig config;
    private final ScheduledSystemClock clock = new ScheduledSystemClock();
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "leasehold-exec-worker");
        t.setDaemon(true);
        return t;
    });
    private final CommandRun run = new CommandRun(GRACE);
    private String lastReason = "the lease changed hands while this command tried to act";

    ExecCommand(Invocation invocation, CommandConfig config) {
        this.invocation = invocation;
        this.config = config;
    }

    int run() {
        try {
            Holder me = Holders.thisProcess("leasehold-exec", clock);
            Optional<NatsSettings> nats = config.nats(me.instance());
            if (nats.isEmpty()) {
                LOG.info("no leasehold.nats.url (or NATS_URL) is set: no-bus mode, CMD acts under epoch 0");
                return run.run(invocation.argv(), 0);
            }
            NatsBus bus;
            try {
                bus = NatsConnector.connect(nats.get());
            } catch (IOException e) {
                LOG.errorf("CMD not started: NATS at %s cannot be reached: %s", nats.get().safeUrls(), e.getMessage());
                return NO_EPOCH;
            }
            try {
                return withBus(bus, me);
            } finally {
                close(bus);
            }
        } finally {
            clock.close();
            workers.shutdownNow();
        }
    }

    private int withBus(NatsBus bus, Holder me) {
        NatsKvLeaseStore store = new NatsKvLeaseStore(bus, config.lease().bucket(), config.lease().key(),
                config.lease().replicas());
        LeaseTiming timing = config.timing();
        for (int i = 0; i < TRIES; i++) {
            long readAt = clock.monotonicNanos();
            Optional<LeaseStore.Versioned> seen;
            try {
                seen = store.read();
            } catch (LeaseStoreException e) {
                if (e.kind() != LeaseStoreException.Kind.DENIED) {
                    LOG.errorf("CMD not started: who holds the lease cannot be read: %s", e.getMessage());
                    return NO_EPOCH;
                }
                seen = Optional.empty(); // the lease's own first step decides: unleased when nobody holds it
            }
            // Seen naming this very process (a take whose answer was lost): the lease's first step adopts it.
            // A vacancy (released, or reset after a wipe) is nobody's epoch: the lease itself takes or waits.
            if (seen.isPresent() && !seen.get().record().vacant() && !seen.get().record().holder().equals(me)) {
                return borrowed(store, seen.get(), readAt, timing);
            }
            Optional<Integer> status = taken(store, me, timing);
            if (status.isPresent()) {
                return status.get();
            }
        }
        LOG.errorf("CMD not started: no epoch after %d tries: %s", TRIES, lastReason);
        return NO_EPOCH;
    }

    private int borrowed(LeaseStore store, LeaseStore.Versioned seen, long readAt, LeaseTiming timing) {
        BorrowedEpoch watch = new BorrowedEpoch(store, seen, readAt, timing, clock, run::stop);
        LOG.infof("the lease is held by %s: CMD acts under its epoch %d", seen.record().holder().instance(),
                watch.epoch());
        try (var ticks = clock.every("leasehold-exec-watch", timing.renewEvery(),
                () -> io.leasehold.core.Blocking.run(workers, watch::check))) {
            return run.run(invocation.argv(), watch.epoch());
        }
    }

    /** Empty when another holder took the lease first (the caller then borrows its epoch). */
    private Optional<Integer> taken(NatsKvLeaseStore store, Holder me, LeaseTiming timing) {
        SpoolEpochFloor floor = new SpoolEpochFloor(new SpoolLayout(config.spoolDir()).root());
        TakenLease lease = new TakenLease(
                onLost -> new ControllerLease(store, floor, clock, timing, me, workers, workers,
                        new LoggedLeaseEvents(timing.renewEvery(), loss -> onLost.accept(loss.standing()))),
                workers, run);
        Standing standing = lease.firstStep();
        if (standing.mode().equals("waiting")) {
            lastReason = standing.reason(); // e.g. another instance took it first: look again
            return Optional.empty();
        }
        long epoch;
        try {
            epoch = lease.epochForAct();
        } catch (ActRefused e) {
            LOG.errorf("CMD not started: %s", e.getMessage());
            return Optional.of(NO_EPOCH);
        }
        LOG.infof(standing.mode().equals("held") ? "took the lease for this run: CMD acts under epoch %d"
                : "serving without the lease (" + standing.reason() + "): CMD acts under epoch %d", epoch);
        lease.keepRenewing(clock, timing.renewEvery());
        try {
            return Optional.of(run.run(invocation.argv(), epoch));
        } finally {
            lease.release();
        }
    }

    private static void close(NatsBus bus) {
        try {
            bus.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
