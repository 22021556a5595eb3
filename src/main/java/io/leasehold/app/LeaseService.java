package io.leasehold.app;

import io.leasehold.clock.TickingClock;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.BorrowedEpoch;
import io.leasehold.lease.Borrowing;
import io.leasehold.lease.ControllerLease;
import io.leasehold.lease.EpochFloor;
import io.leasehold.lease.Holder;
import io.leasehold.lease.Holders;
import io.leasehold.lease.LeaseEvents;
import io.leasehold.lease.LeaseFace;
import io.leasehold.lease.LeaseGate;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.lease.ReplicatedStoreTiming;
import io.leasehold.lease.Standing;
import io.leasehold.logs.LoggedLeaseEvents;
import io.leasehold.nats.BusSettings;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsKvLeaseStore;
import io.leasehold.nats.NatsSettings;
import io.leasehold.workers.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The controller lease as the service uses it: no-bus when no NATS URL is set, otherwise a
 * {@link ControllerLease} on a NATS KV bucket, ticked every renew-every. Hands the drain its gate.
 */
@Singleton
public class LeaseService implements LeaseFace {

    private static final Logger LOG = Logger.getLogger(LeaseService.class);

    private final LeaseholdConfig config;
    private final TickingClock clock;
    private final EpochFloor floor;
    private final Holder me;
    private final boolean leaderMode;
    private volatile ControllerLease lease;
    private volatile Standing before = Standing.noBus();
    private volatile NatsBus bus;
    private boolean stopped;
    private volatile LeaseTiming timing;
    private volatile TickingClock.Ticks ticks;
    private volatile TickingClock.Ticks borrowReads;
    private volatile Borrowing borrowing;
    private volatile Consumer<LeaseEvents.Loss> whenLost = loss -> { };
    private volatile Consumer<Borrowing.Lapse> whenLapsed = lapse -> { };
    private final LeaseThreads threads;

    public LeaseService(LeaseholdConfig config, TickingClock clock, EpochFloor floor, LeaseThreads threads) {
        this.threads = threads;
        this.config = config;
        this.clock = clock;
        this.floor = floor;
        this.me = Holders.thisProcess(clock);
        this.leaderMode = config.drain().mode().equals("leader");
        if (configured()) {
            ReplicatedStoreTiming.warning(config.lease().renewDeadline(), config.lease().replicas(),
                    config.spool().jetstream().replicas(), config.spool().kind().equals("jetstream")).ifPresent(LOG::warn);
        }
    }

    /** What every act of the drain passes. */
    @Override
    public LeaseGate gate() {
        return new LeaseGate() {
            @Override
            public long epochForAct() throws ActRefused {
                ControllerLease current = lease;
                if (current == null) {
                    if (configured()) {
                        throw new ActRefused(before.reason());
                    }
                    return 0;
                }
                return current.epochForAct();
            }

            @Override
            public boolean gatesSettlements() {
                return leaderMode;
            }

            @Override
            public boolean mayClaim() {
                ControllerLease current = lease;
                if (current == null) {
                    return !configured();
                }
                return leaderMode ? current.leads() : current.canAct();
            }
        };
    }

    @Override
    public LeaseGate holderGate() {
        return () -> {
            ControllerLease current = lease;
            if (current == null) {
                if (configured()) {
                    throw new ActRefused(before.reason());
                }
                return 0;
            }
            // Asked before and after: between the two the epoch is this instance's own, never one borrowed
            // while waiting (which a take in between would otherwise let through as if it were its own).
            if (!current.leads()) {
                throw new ActRefused("this instance does not hold the controller lease; its holder does this work");
            }
            long epoch = current.epochForAct();
            if (!current.leads()) {
                throw new ActRefused("this instance no longer holds the controller lease");
            }
            return epoch;
        };
    }

    @Override
    public Standing standing() {
        ControllerLease current = lease;
        return current == null ? before : current.standing();
    }

    private boolean configured() {
        return BusSettings.of(config.nats(), me.instance()).isPresent();
    }

    /**
     * Takes the lease's first step before returning, so the drain starts knowing where it stands; a
     * first step that takes longer (a slow or refusing bus) goes on in the background, and nothing is
     * acted meanwhile. In {@code claims} mode a waiting instance acts beside the holder under its epoch
     * while it sees it renew, read every {@link BorrowedEpoch#readEvery}; {@code whenLapsed} stops what ran
     * under an epoch no longer lent.
     */
    void start(Consumer<LeaseEvents.Loss> whenLost, Consumer<Borrowing.Lapse> whenLapsed) {
        if (!configured()) {
            LOG.info(Standing.noBus().reason());
            return;
        }
        this.whenLost = whenLost;
        this.whenLapsed = whenLapsed;
        timing = new LeaseTiming(config.lease().duration(), config.lease().renewEvery(),
                config.lease().renewDeadline());
        before = new Standing("waiting", 0, null, null, "connecting to " + settings().safeUrls(), null);
        step().ifNoItem().after(timing.duration()).recoverWithItem((Void) null).await().indefinitely();
        ticks = clock.every("leasehold-lease", timing.renewEvery(), this::step);
        if (!leaderMode) {
            timing.borrowingWarning().ifPresent(LOG::warn);
            borrowReads = clock.every("leasehold-borrow", BorrowedEpoch.readEvery(timing), this::lookForBorrowing);
        }
    }

    /** One read for the borrowing, while this instance waits for the lease (not while it holds or lost it). */
    private Uni<Void> lookForBorrowing() {
        ControllerLease current = lease;
        Borrowing lent = borrowing;
        if (current == null || lent == null || !current.waiting()) {
            return Uni.createFrom().voidItem();
        }
        return Blocking.run(threads, lent::look);
    }

    /** One tick: connect while there is no bus yet (nothing is acted meanwhile), then the lease's step. */
    private Uni<Void> step() {
        ControllerLease current = lease;
        if (current != null) {
            return Uni.createFrom().completionStage(current::tick);
        }
        return Blocking.run(threads, this::connect)
                .chain(() -> lease == null ? Uni.createFrom().voidItem() : Uni.createFrom().completionStage(lease::tick));
    }

    /**
     * One connect at a time, and none after stop: a first step still connecting when the ticks begin
     * must not make a second lease object (it would adopt the first one's take, and the orphan's
     * deadline would later fire a false loss).
     */
    private synchronized void connect() {
        if (lease != null || stopped) {
            return;
        }
        NatsSettings settings = settings();
        try {
            bus = NatsConnector.connect(settings);
        } catch (IOException e) {
            // The message names the setting to look at and holds no secret (NatsConnector masks them).
            String why = "cannot connect to NATS at " + settings.safeUrls() + ": " + e.getMessage()
                    + "; nothing is acted until it can";
            if (!why.equals(before.reason())) {
                LOG.warn(why);
            }
            before = new Standing("waiting", 0, null, null, why, null);
            return;
        }
        NatsKvLeaseStore store = new NatsKvLeaseStore(bus, config.lease().bucket(), config.lease().key(),
                config.lease().replicas());
        try {
            store.ensureBucket();
        } catch (LeaseStoreException e) {
            // A refused bucket is decided by the lease's own first step (unleased when nobody holds it).
            LOG.warnf("the lease bucket %s could not be made: %s", config.lease().bucket(), e.getMessage());
        }
        ControllerLease made = new ControllerLease(store, floor, ConfigRecords.wallFloor(config), clock, timing, me,
                threads, threads, new LoggedLeaseEvents(timing.renewEvery(), loss -> whenLost.accept(loss)));
        if (!leaderMode) {
            borrowing = new Borrowing(store, clock, timing, me, this::lapsed);
            made.lendWhileWaiting(borrowing);
        }
        lease = made;
    }

    private void lapsed(Borrowing.Lapse lapse) {
        String line = "no longer acting under the holder's epoch %d: %s; whatever runs under it is stopped now and"
                + " goes back to pending/";
        if (lapse.byTake()) {
            LOG.infof(line, lapse.epoch(), lapse.why()); // the take's own line follows
        } else {
            LOG.warnf(line, lapse.epoch(), lapse.why());
        }
        whenLapsed.accept(lapse);
    }

    void stop() {
        for (TickingClock.Ticks running : new TickingClock.Ticks[] {ticks, borrowReads}) {
            if (running != null) {
                running.close();
            }
        }
        synchronized (this) { // waits for a connect under way; none starts afterwards
            stopped = true;
        }
        ControllerLease current = lease;
        if (current != null) {
            current.release();
        }
        if (bus != null) {
            try {
                bus.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private NatsSettings settings() {
        return BusSettings.of(config.nats(), me.instance()).orElseThrow();
    }
}
