package io.leasehold.command;

import io.leasehold.config.ConfigRecords;
import io.leasehold.lease.Holders;
import io.leasehold.clock.SystemClock;
import io.leasehold.clock.TickingClock;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.BorrowedEpoch;
import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsKvLeaseStore;
import io.leasehold.nats.NatsSettings;
import io.leasehold.workers.Blocking;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.logging.Logger;

/**
 * {@code lease exec}: runs CMD under the epoch it may act under. No bus: epoch 0. Otherwise this
 * process's own {@link TakenLease} steps as a candidate while a {@link BorrowedEpoch} watches the
 * holder, and the first to speak decides: taken (nobody held it, or its holder was seen unrenewed for a
 * full duration) — CMD under the new epoch, the lease given back after; a live holder seen renewing —
 * CMD under its epoch, stopped before a new holder could take over; the floor unusable — no CMD.
 * The answer is CMD's exit status; {@link #NO_EPOCH} when CMD never started.
 */
final class ExecCommand {

    private static final Logger LOG = Logger.getLogger(ExecCommand.class);
    /** CMD did not start: the bus could not be reached, or no epoch could be had. */
    static final int NO_EPOCH = 1;

    private final Invocation invocation;
    private final CommandConfig config;
    private final SystemClock clock = SystemClock.forCommands();
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "leasehold-exec-worker");
        t.setDaemon(true);
        return t;
    });
    private final CommandRun run = new CommandRun(clock, workers);

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
        LeaseStore store = new NatsKvLeaseStore(bus, config.lease().bucket(), config.lease().key(),
                config.lease().replicas());
        LeaseTiming timing = config.timing();
        ExecDecision decision = new ExecDecision(run);
        TakenLease lease = new TakenLease(store, new ExecFloor(config.spoolDir(), config.spoolDirSet()),
                ConfigRecords.wallFloor(config.mapped()), clock,
                timing, me, workers, decision, run);
        try (BorrowedEpoch watch = new BorrowedEpoch(store, clock, timing, me, decision)) {
            lease.firstStep(); // nobody holds it: taken at once
            if (!decision.made()) {
                lease.keepStepping();
                LOG.infof("CMD waits for an epoch (%s): it starts once the holder is seen renewing, or this"
                        + " command may take the lease", lease.standing().reason());
            }
            try (TickingClock.Ticks looking = watching(decision, watch, timing)) {
                ExecDecision.Verdict verdict = decision.await();
                switch (verdict.kind()) {
                    case BORROWED:
                        lease.release(); // final: it takes nothing from here on
                        LOG.infof("the lease is held by %s, seen renewing: CMD acts under its epoch %d",
                                verdict.held().record().holder().instance(), verdict.held().epoch());
                        return run.run(invocation.argv(), verdict.held().epoch());
                    case REFUSED:
                        lease.release();
                        LOG.errorf("CMD not started: %s", verdict.why());
                        return NO_EPOCH;
                    default:
                        watch.close();
                        looking.close();
                        return own(lease, verdict.kind());
                }
            }
        }
    }

    /** Reads for the watch while the decision is open, and on while CMD acts under a borrowed epoch. */
    private TickingClock.Ticks watching(ExecDecision decision, BorrowedEpoch watch, LeaseTiming timing) {
        if (decision.made()) {
            return () -> { };
        }
        workers.execute(watch::look); // the first sight at once: the next read can then show a renewal
        return clock.every("leasehold-exec-watch", BorrowedEpoch.readEvery(timing),
                () -> Blocking.run(workers, watch::look));
    }

    /** CMD under this process's own lease (or unleased, epoch 0), renewed while it runs and given back after. */
    private int own(TakenLease lease, ExecDecision.Kind kind) {
        try {
            long epoch;
            try {
                epoch = lease.epochForAct();
            } catch (ActRefused e) {
                LOG.errorf("CMD not started: %s", e.getMessage());
                return NO_EPOCH;
            }
            lease.keepStepping();
            if (kind == ExecDecision.Kind.TAKEN) {
                LOG.infof("took the lease for this run: CMD acts under epoch %d", epoch);
            } else {
                LOG.infof("serving without the lease (%s): CMD acts under epoch %d", lease.standing().reason(), epoch);
            }
            return run.run(invocation.argv(), epoch);
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
