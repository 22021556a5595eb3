package io.leasehold.drain;

import io.leasehold.clock.TickingClock;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Sightings;
import io.leasehold.handler.Handler;
import io.leasehold.lease.LeaseGate;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.Pause;
import io.leasehold.spool.Spool;
import io.leasehold.workers.Blocking;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * One instance's drain of the spool: claims items while it has room (expired claims before new
 * items), runs the handler on each, and settles them. File operations run on the worker pool; no
 * lock is held across them. Fills are single-flight: a request while one runs makes it go round
 * once more instead of starting a second.
 */
public final class Drainer {

    private static final Logger LOG = Logger.getLogger(Drainer.class);
    private static final Duration FIRST_SCAN_LIMIT = Duration.ofMinutes(1);

    private final Spool spool;
    private final TickingClock clock;
    private final LeaseTerms terms;
    private final DrainSettings settings;
    private final Executor workers;
    /** Renewals never queue behind work: a worker pool full of slow uploads or handlers must not cost a claim. */
    private final Executor renewals;
    private final ArrivalWatch arrivals;
    private final LeaseGate gate;
    private final DrainTally tally;
    private final ClaimRenewal renewal;
    private final Settlement settlement;
    private final SettlementRetry settlementRetry;
    private final Takeover takeover;
    private final ClaimWork work;
    private final ActStops stops;
    private final Slots slots;
    private final DrainPause pause;

    private final Map<String, HeldClaim> held = new ConcurrentHashMap<>();
    private final Map<HeldClaim, ClaimWork.Run> working = new ConcurrentHashMap<>();
    private final Sightings sightings = new Sightings();
    private final ClaimSource source;
    private final IdleWaiters idleWaiters = new IdleWaiters();
    private final List<TickingClock.Ticks> ticks = new CopyOnWriteArrayList<>();
    private final AtomicInteger passes = new AtomicInteger();
    private final boolean auto;
    private volatile boolean accepting;
    /** The thread of the renewal pass under way, if any. */
    private volatile Thread renewalPass;

    /** @param outputs where the handler's reports go: each attempt's output, kept for the operator */
    public Drainer(Spool spool, TickingClock clock, LeaseTerms terms, DrainSettings settings, Handler handler,
            LeaseGate gate, Executor workers, Executor renewals, ArrivalWatch arrivals, DrainEvents events,
            boolean auto, DrainPause pause, OutputKeeping outputs) {
        this.spool = spool;
        this.pause = pause;
        this.renewals = renewals;
        this.clock = clock;
        this.terms = terms;
        this.settings = settings;
        this.workers = workers;
        this.arrivals = arrivals;
        this.gate = gate;
        this.auto = auto;
        this.tally = new DrainTally(events);
        this.renewal = new ClaimRenewal(spool, clock, tally);
        this.settlement = new Settlement(spool, clock, terms, settings, tally,
                () -> ThreadLocalRandom.current().nextDouble(), sightings, this::handingBack);
        this.settlementRetry = new SettlementRetry(settlement, clock, settings.backoff(), tally,
                () -> ThreadLocalRandom.current().nextDouble());
        this.takeover = new Takeover(spool, clock, terms, settings, tally, sightings);
        this.source = new ClaimSource(spool, clock, takeover, tally, sightings, held::containsKey);
        this.work = new ClaimWork(spool, clock, handler, gate, settings.handlerTimeout(), workers, settlement,
                settlementRetry, tally, outputs);
        this.stops = new ActStops(spool, held, working, settlement, settlementRetry, tally);
        this.slots = new Slots(settings.concurrency(), source, work, workers, held, working, stops, idleWaiters,
                this::claiming, () -> accepting, pause::paused, () -> renewalPass);
    }

    /**
     * Starts renewing and, when draining on its own ({@code auto}), polling and watching. Renewal is
     * registered first: nothing is claimed before something renews it.
     */
    public void start() {
        pause.refresh(); // before anything can claim: a pause made while this instance was down holds from its start
        accepting = true;
        ticks.add(clock.every("leasehold-renew", terms.renewEvery(), this::renewNow));
        if (!auto) {
            // No poll tick: a pass under way learns of a pause made elsewhere within a poll interval all the same.
            ticks.add(clock.every("leasehold-pause", settings.pollInterval(), this::refreshPause));
        }
        if (auto) {
            ticks.add(clock.every("leasehold-poll", settings.pollInterval(), this::pollNow));
            arrivals.start(this::arrived, this::missedArrivals);
            // The first scan finishes before start returns, so an instance is at work once it is up.
            pollNow().await().atMost(FIRST_SCAN_LIMIT);
        }
    }

    /** Whether to claim now: always when draining on its own, else only during a drain pass. */
    private boolean claiming() {
        return accepting && (auto || passes.get() > 0) && gate.mayClaim() && !pause.paused();
    }

    /**
     * Renews every held claim now (what the renewal tick does), then tries again the settlements that
     * could not be written and whose backoff has passed.
     */
    public Uni<Void> renewNow() {
        // Both on the renewal thread: a settlement that could not be written waits beside the renewals
        // that keep its claim, never behind the work that fills the worker pool.
        return Blocking.run(renewals, () -> {
            renewalPass = Thread.currentThread();
            try {
                renewal.renewAll(List.copyOf(held.values()));
                settlementRetry.retryDue();
            } finally {
                renewalPass = null;
            }
        });
    }

    /** Reads the fleet's pause now; a pass with nothing running ends at once if it says paused. */
    private Uni<Void> refreshPause() {
        return Blocking.run(workers, () -> {
            pause.refresh();
            slots.wakeIfIdle();
        });
    }

    /** Looks for expired claims and new items now (what the poll tick does). */
    public Uni<Void> pollNow() {
        return Blocking.run(workers, () -> {
            pause.refresh();
            source.newRound();
            scanClaims();
            slots.fillSynchronously();
        });
    }

    /** An item just became claimable (an enqueue finished): claim it now rather than at the next poll. */
    public void nudge(String id) {
        arrived(id);
    }

    private void arrived(String name) {
        if (source.arrived(name)) {
            slots.requestFill();
        } else {
            missedArrivals();
        }
    }

    private void missedArrivals() {
        source.forgetListing();
        slots.requestFill();
    }

    private void scanClaims() {
        try {
            source.scanClaims();
        } catch (IOException e) {
            LOG.warnf("could not list claimed/: %s", e.getMessage());
        }
    }

    /**
     * Marked before the item is back in pending/ and kept until the next round: the watch reports it in
     * pending/ (while the claim is still held, or later), and it is the lease holder's to claim, not ours.
     */
    private void handingBack(String id) {
        source.handedBackForOthers(id);
    }

    /**
     * One drain pass: works until nothing is left that this instance can do, or the budget is spent.
     * For a cron trigger when the service scales to zero between passes.
     */
    public Uni<DrainReport> drainPass(Duration budget) {
        DrainTally.Snapshot before = tally.snapshot();
        source.newRound(); // a new pass is the next chance, as a poll tick is
        passes.incrementAndGet();
        return Blocking.run(workers, () -> {
                    pause.refresh();
                    scanClaims();
                })
                // Paused, the pass starts nothing: it answers at once rather than wait out its budget.
                .chain(() -> accepting && !pause.paused() ? idleWaiters.await(budget, slots::requestFill, () -> false)
                        : Uni.createFrom().item(false))
                .onTermination().invoke(passes::decrementAndGet)
                .map(idle -> tally.since(before, idle && !pause.paused(), pause.paused(), budget));
    }

    /**
     * Pauses or resumes claiming for the whole fleet (blocking: it writes the store). This instance obeys at
     * once, the others at their next poll tick or drain pass; a resume fills the slots here now.
     */
    public Pause setPaused(boolean paused, String by) throws IOException {
        Pause p = pause.set(paused, by);
        if (p.paused()) {
            slots.wakeIfIdle(); // a pass waiting with nothing running answers now
        } else {
            slots.requestFill();
        }
        return p;
    }

    /** The drain's pause as last read or made here. */
    public DrainPause pause() {
        return pause;
    }

    public int claimsHeld() {
        return held.size();
    }

    /** Claims whose outcome is known but could not be written yet (held and renewed meanwhile). */
    public int settlementsWaiting() {
        return settlementRetry.waiting();
    }

    /**
     * Stops claiming, lets running work finish within the shutdown timeout, then hands what is left
     * back to pending/ at once rather than leaving it to expire. Blocks; call it at shutdown.
     */
    public void stop() {
        stop(settings.shutdownTimeout());
    }

    /**
     * Stops at once (the lease was lost): every act first ({@link #stopActs}), then the settlements known
     * and the hand-backs, none of which holds up the stopping of an attempt. Blocks on the spool.
     */
    public void stopNow() {
        stop(Duration.ZERO);
    }

    /**
     * Stops every act now and touches no file and no connection ({@link ActStops#stopAll}): nothing more is
     * claimed, so it may run on the lease's deadline timer. The claims are handed back by {@link #stopNow}.
     */
    public void stopActs() {
        accepting = false;
        stops.stopAll();
    }

    /** A borrowed {@code epoch} lapsed: stops every attempt under it ({@link ActStops#stopUnder}); claiming goes on. */
    public void stopActsUnder(long epoch) {
        Slots.STOPPING.set(true);
        try {
            stops.stopUnder(epoch);
        } finally {
            Slots.STOPPING.remove();
        }
    }

    /** Hands back the claims whose attempts were stopped; blocks on the spool (a dead link waits out its timeout). */
    public void handBackStopped() {
        stops.handBackStopped("as the epoch it ran under lapsed");
    }

    private void stop(Duration timeout) {
        if (timeout.isZero()) {
            stopActs();
        }
        accepting = false;
        arrivals.close();
        if (slots.busy() > 0 && !timeout.isZero()) {
            idleWaiters.await(timeout, () -> { }, () -> slots.busy() == 0).await().indefinitely();
        }
        // An outcome that could not be written yet gets one more try: handing it back would run it again.
        settlementRetry.retryAll();
        String when = timeout.isZero() ? "as the controller lease was lost" : "at shutdown";
        stops.handBackStopped(when);
        for (HeldClaim claim : List.copyOf(held.values())) {
            stops.handBack(claim, when);
        }
        ticks.forEach(TickingClock.Ticks::close);
        ticks.clear();
    }
}
