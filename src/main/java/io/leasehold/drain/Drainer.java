package io.leasehold.drain;

import io.leasehold.clock.TickingClock;
import io.leasehold.core.ClaimName;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Sightings;
import io.leasehold.handler.Handler;
import io.leasehold.lease.LeaseGate;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.Spool;
import io.leasehold.workers.Blocking;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
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

    private final Map<String, HeldClaim> held = new ConcurrentHashMap<>();
    private final Map<HeldClaim, ClaimWork.Run> working = new ConcurrentHashMap<>();
    /** Claims whose attempts {@link #stopActs} ended, for the hand-backs that follow it (which may block). */
    private final Queue<HeldClaim> stopped = new ConcurrentLinkedQueue<>();
    private final AtomicInteger running = new AtomicInteger();
    private final Sightings sightings = new Sightings();
    private final ClaimSource source;
    private final AtomicInteger fillRequests = new AtomicInteger();
    private final IdleWaiters idleWaiters = new IdleWaiters();
    private final List<TickingClock.Ticks> ticks = new CopyOnWriteArrayList<>();
    private final AtomicInteger passes = new AtomicInteger();
    private final boolean auto;
    private volatile boolean accepting;
    /** The thread of the renewal pass under way, if any. */
    private volatile Thread renewalPass;
    /** Set on a thread that stops acts (a lease timer or read): a slot whose act it ended goes on on a worker. */
    private static final ThreadLocal<Boolean> STOPPING = ThreadLocal.withInitial(() -> false);

    public Drainer(Spool spool, TickingClock clock, LeaseTerms terms, DrainSettings settings, Handler handler,
            LeaseGate gate, Executor workers, Executor renewals, ArrivalWatch arrivals, DrainEvents events,
            boolean auto) {
        this.spool = spool;
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
                settlementRetry, tally);
    }

    /**
     * Starts renewing and, when draining on its own ({@code auto}), polling and watching. Renewal is
     * registered first: nothing is claimed before something renews it.
     */
    public void start() {
        accepting = true;
        ticks.add(clock.every("leasehold-renew", terms.renewEvery(), this::renewNow));
        if (auto) {
            ticks.add(clock.every("leasehold-poll", settings.pollInterval(), this::pollNow));
            arrivals.start(this::arrived, this::missedArrivals);
            // The first scan finishes before start returns, so an instance is at work once it is up.
            pollNow().await().atMost(FIRST_SCAN_LIMIT);
        }
    }

    /** Whether to claim now: always when draining on its own, else only during a drain pass. */
    private boolean claiming() {
        return accepting && (auto || passes.get() > 0) && gate.mayClaim();
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

    /** Looks for expired claims and new items now (what the poll tick does). */
    public Uni<Void> pollNow() {
        return Blocking.run(workers, () -> {
            source.newRound();
            scanClaims();
            fillSynchronously();
        });
    }

    /** An item just became claimable (an enqueue finished): claim it now rather than at the next poll. */
    public void nudge(String id) {
        arrived(id);
    }

    private void arrived(String name) {
        if (source.arrived(name)) {
            requestFill();
        } else {
            missedArrivals();
        }
    }

    private void missedArrivals() {
        source.forgetListing();
        requestFill();
    }

    private void scanClaims() {
        try {
            source.scanClaims();
        } catch (IOException e) {
            LOG.warnf("could not list claimed/: %s", e.getMessage());
        }
    }

    private void requestFill() {
        if (claiming() && fillRequests.getAndIncrement() == 0) {
            workers.execute(() -> fillLoop(true));
        }
    }

    /** For ticks, which must finish their fill before they count as done. */
    private void fillSynchronously() {
        if (claiming() && fillRequests.getAndIncrement() == 0) {
            fillLoop(false);
        }
    }

    /**
     * {@code keepLast}: on a worker of its own (not a tick's), the fill works the slot it filled last
     * itself once it is done, rather than hand it to another worker: an item that arrives alone then
     * costs one thread switch, not two.
     */
    private void fillLoop(boolean keepLast) {
        HeldClaim[] kept = keepLast ? new HeldClaim[1] : null;
        int missed = 1;
        do {
            try {
                fillOnce(kept);
            } catch (IOException | RuntimeException e) {
                LOG.warnf(e, "a scan of the spool failed; the next tick tries again");
            }
            missed = fillRequests.addAndGet(-missed);
        } while (missed != 0);
        if (kept != null && kept[0] != null) {
            lane(kept[0]);
        }
    }

    /** Claims for every free slot, listing pending/ as the queue runs dry; each claim starts a slot. */
    private void fillOnce(HeldClaim[] kept) throws IOException {
        while (claiming() && running.get() < settings.concurrency()) {
            if (!claimIntoSlot(kept) && !source.listMore()) {
                break;
            }
        }
        signalIfIdle();
    }

    /**
     * Counts the slot as busy before the claim is tried, so nothing sees the instance idle while a
     * claim it just made has not started yet; the slot is given back when no claim was made.
     */
    private boolean claimIntoSlot(HeldClaim[] kept) throws IOException {
        running.incrementAndGet();
        Optional<ClaimName> claim = Optional.empty();
        try {
            claim = source.next();
        } finally {
            if (claim.isPresent()) {
                HeldClaim first = hold(claim.get());
                if (kept != null && kept[0] == null && running.get() >= settings.concurrency()) {
                    kept[0] = first; // the last free slot: this fill's own thread works it (see fillLoop)
                } else {
                    // One thread switch when a slot starts work; none per item after that (see lane).
                    workers.execute(() -> lane(first));
                }
            } else {
                running.decrementAndGet();
            }
        }
        return claim.isPresent();
    }

    private HeldClaim hold(ClaimName claim) {
        HeldClaim held = new HeldClaim(claim);
        this.held.put(claim.id(), held);
        return held;
    }

    /**
     * One slot's work, on a worker: its claim, then the next claim it makes, on this same thread for
     * as long as each item finishes before its run returns (a handler that answers at once). An item
     * whose handler answers later goes on from the thread that settled it.
     */
    private void lane(HeldClaim first) {
        for (HeldClaim claim = first; claim != null; ) {
            LaneTurn turn = new LaneTurn();
            HeldClaim current = claim;
            ClaimWork.Run run = work.on(current, where -> { // where it went is the events' business, told by the settlement
                finished(current);
                if (!turn.endedInline()) {
                    goOnElsewhere();
                }
            });
            // Registered before it starts, so a stop that comes during the look cancels it (keyed by the
            // claim itself: a later claim of the same id is another entry).
            working.put(current, run);
            if (!accepting) {
                handBack(current, "at shutdown"); // claimed while a stop ran: stop's own hand-back may have missed it
                run.cancel();
            }
            try {
                run.start();
            } catch (RuntimeException | Error e) {
                // ClaimWork turns every failure into an outcome; this is only a last word should that ever break.
                try (ItemLogContext context = ItemLogContext.of(current)) {
                    LOG.errorf(e, "working on %s failed unexpectedly; its lease will run out and another instance "
                            + "takes it over", current.current());
                }
                run.cancel();
            }
            claim = turn.returned() ? null : nextForSlot();
        }
    }

    /**
     * Settled later, on a worker as a rule: the slot claims its next item right there. On an event
     * loop, which must never do file I/O, or the renewal thread, which must get on with renewing, the
     * slot goes on on a worker.
     */
    private void goOnElsewhere() {
        if (io.vertx.core.Context.isOnEventLoopThread() || Thread.currentThread() == renewalPass || STOPPING.get()) {
            // Submitted with the keys cleared (a pool thread made now inherits them) and run with them cleared.
            try (ItemLogContext none = ItemLogContext.none()) {
                workers.execute(() -> {
                    try (ItemLogContext alsoNone = ItemLogContext.none()) {
                        lane(nextForSlot());
                    }
                });
            }
        } else {
            // Often called from within the settled item's context: the next item's claim is not its.
            try (ItemLogContext none = ItemLogContext.none()) {
                lane(nextForSlot());
            }
        }
    }

    /** The claim for a slot whose item just ended (takeovers first), or null with the slot given back. */
    private HeldClaim nextForSlot() {
        try {
            Optional<ClaimName> claim = claiming() ? source.next() : Optional.empty();
            if (claim.isPresent()) {
                return hold(claim.get());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warnf(e, "a claim failed; the next tick tries again");
        }
        running.decrementAndGet();
        requestFill(); // the fill loop lists pending/ when it needs to, or claims what arrived meanwhile
        signalIfIdle();
        return null;
    }

    /**
     * Marked before the item is back in pending/ and kept until the next round: the watch reports it in
     * pending/ (while the claim is still held, or later), and it is the lease holder's to claim, not ours.
     */
    private void handingBack(String id) {
        source.handedBackForOthers(id);
    }

    private void finished(HeldClaim held) {
        this.held.remove(held.id(), held);
        working.remove(held);
    }

    private void signalIfIdle() {
        // A stopping drain claims nothing more: it is idle as soon as its running work is over.
        if (running.get() == 0 && (!accepting || source.exhausted())) {
            idleWaiters.signal();
        }
    }

    /**
     * One drain pass: works until nothing is left that this instance can do, or the budget is spent.
     * For a cron trigger when the service scales to zero between passes.
     */
    public Uni<DrainReport> drainPass(Duration budget) {
        DrainTally.Snapshot before = tally.snapshot();
        source.newRound(); // a new pass is the next chance, as a poll tick is
        passes.incrementAndGet();
        return Blocking.run(workers, this::scanClaims)
                .chain(() -> accepting ? idleWaiters.await(budget, this::requestFill, () -> false)
                        : Uni.createFrom().item(false))
                .onTermination().invoke(passes::decrementAndGet)
                .map(idle -> tally.since(before, idle, budget));
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
     * Stops every act now and touches no file and no connection: nothing more is claimed and every running
     * attempt is cancelled (an exec child's group KILLed), so it may run on the lease's deadline timer. A
     * claim whose outcome waits to be written is left to the settlement retry: its handler is done. The
     * claims are handed back by {@link #stopNow} afterwards, however long a move waits on a dead link.
     */
    public void stopActs() {
        accepting = false;
        for (HeldClaim claim : List.copyOf(held.values())) {
            if (settlementRetry.holds(claim)) {
                continue;
            }
            ClaimWork.Run work = working.get(claim);
            if (claim.beginFinishing()) {
                stopped.add(claim);
                if (work != null) {
                    work.cancel(); // not yet in working: its lane sees the stop and cancels it before it starts
                }
            }
        }
    }

    /**
     * A borrowed {@code epoch} lapsed: stops every attempt under it, and those still in their look, with no
     * file or bus call, so it may run on the lease's timer; their slots go on on workers, and claiming goes
     * on (the gate lets nothing new start until an epoch is lent again). An attempt whose handler already
     * answered is left to settle: its act is over. {@link #handBackStopped} returns the stopped claims.
     */
    public void stopActsUnder(long epoch) {
        STOPPING.set(true);
        try {
            for (HeldClaim claim : List.copyOf(held.values())) {
                ClaimWork.Run run = working.get(claim);
                Long under = claim.epoch();
                if (run == null || (under != null && under != epoch) || settlementRetry.holds(claim)) {
                    continue; // not begun (its look asks the gate), another epoch's, or an outcome waiting to be written
                }
                if (run.stopAct() && claim.beginFinishing()) {
                    stopped.add(claim);
                }
            }
        } finally {
            STOPPING.remove();
        }
    }

    /** Hands back the claims whose attempts were stopped; blocks on the spool (a dead link waits out its timeout). */
    public void handBackStopped() {
        for (HeldClaim claim = stopped.poll(); claim != null; claim = stopped.poll()) {
            giveBack(claim, "as the epoch it ran under lapsed");
        }
    }

    private void stop(Duration timeout) {
        if (timeout.isZero()) {
            stopActs();
        }
        accepting = false;
        arrivals.close();
        if (running.get() > 0 && !timeout.isZero()) {
            idleWaiters.await(timeout, () -> { }, () -> running.get() == 0).await().indefinitely();
        }
        // An outcome that could not be written yet gets one more try: handing it back would run it again.
        settlementRetry.retryAll();
        String when = timeout.isZero() ? "as the controller lease was lost" : "at shutdown";
        for (HeldClaim claim = stopped.poll(); claim != null; claim = stopped.poll()) {
            giveBack(claim, when);
        }
        for (HeldClaim claim : List.copyOf(held.values())) {
            handBack(claim, when);
        }
        ticks.forEach(TickingClock.Ticks::close);
        ticks.clear();
    }

    private void handBack(HeldClaim claim, String when) {
        if (claim.beginFinishing()) {
            ClaimWork.Run work = working.get(claim);
            if (work != null) {
                work.cancel();
            }
            giveBack(claim, when);
        }
    }

    /** Moves a claim whose work has ended back to pending/ at once, rather than leaving it to expire. */
    private void giveBack(HeldClaim claim, String when) {
        try (ItemLogContext context = ItemLogContext.of(claim)) { // the stop's lines name the item handed back
            try {
                if (settlement.move(claim, spool::handBack)) {
                    tally.handedBack(claim.id());
                    LOG.infof("handed %s back to pending/ %s", claim.id(), when);
                }
            } catch (IOException e) {
                LOG.warnf("could not hand %s back; its lease will run out and another instance takes it: %s",
                        claim.current(), e.getMessage());
            }
        }
    }
}
