package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.HeldClaim;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The drain's slots, {@code concurrency} of them: the fill loop claims for every free slot, and each slot
 * works its claim and then the next one it claims on the same worker (a lane) for as long as items finish
 * at once, so an item costs no thread switch once its slot is busy.
 */
final class Slots {

    /** The drain's lines keep the one category operators filter on. */
    private static final Logger LOG = Logger.getLogger(Drainer.class);
    /** Set on a thread that stops acts (a lease timer or read): a slot whose act it ended goes on on a worker. */
    static final ThreadLocal<Boolean> STOPPING = ThreadLocal.withInitial(() -> false);

    private final int concurrency;
    private final ClaimSource source;
    private final ClaimWork work;
    private final Executor workers;
    private final Map<String, HeldClaim> held;
    private final Map<HeldClaim, ClaimWork.Run> working;
    private final ActStops stops;
    private final IdleWaiters idleWaiters;
    private final BooleanSupplier claiming;
    private final BooleanSupplier accepting;
    /** The fleet's pause: nothing more is claimed, so the drain is idle once its running work is over. */
    private final BooleanSupplier paused;
    /** The thread of the renewal pass under way, if any: a slot never goes on on it. */
    private final Supplier<Thread> renewalPass;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger fillRequests = new AtomicInteger();

    Slots(int concurrency, ClaimSource source, ClaimWork work, Executor workers, Map<String, HeldClaim> held,
            Map<HeldClaim, ClaimWork.Run> working, ActStops stops, IdleWaiters idleWaiters, BooleanSupplier claiming,
            BooleanSupplier accepting, BooleanSupplier paused, Supplier<Thread> renewalPass) {
        this.concurrency = concurrency;
        this.source = source;
        this.work = work;
        this.workers = workers;
        this.held = held;
        this.working = working;
        this.stops = stops;
        this.idleWaiters = idleWaiters;
        this.claiming = claiming;
        this.accepting = accepting;
        this.paused = paused;
        this.renewalPass = renewalPass;
    }

    /** How many slots are busy: working an item, or about to. */
    int busy() {
        return running.get();
    }

    /** Fills the free slots on a worker, unless a fill is under way (which then goes round once more). */
    void requestFill() {
        if (claiming.getAsBoolean() && fillRequests.getAndIncrement() == 0) {
            workers.execute(() -> fillLoop(true));
        }
    }

    /** For ticks, which must finish their fill before they count as done. */
    void fillSynchronously() {
        if (claiming.getAsBoolean() && fillRequests.getAndIncrement() == 0) {
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
        while (claiming.getAsBoolean() && running.get() < concurrency) {
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
                if (kept != null && kept[0] == null && running.get() >= concurrency) {
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
            if (!accepting.getAsBoolean()) {
                stops.handBack(current, "at shutdown"); // claimed while a stop ran: stop's own hand-back may have missed it
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
        if (io.vertx.core.Context.isOnEventLoopThread() || Thread.currentThread() == renewalPass.get() || STOPPING.get()) {
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
            Optional<ClaimName> claim = claiming.getAsBoolean() ? source.next() : Optional.empty();
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

    private void finished(HeldClaim held) {
        this.held.remove(held.id(), held);
        working.remove(held);
    }

    /** Tells a waiting drain pass it is over when nothing runs and nothing more may be claimed (a pause). */
    void wakeIfIdle() {
        signalIfIdle();
    }

    private void signalIfIdle() {
        // A stopping or paused drain claims nothing more: it is idle as soon as its running work is over.
        if (running.get() == 0 && (!accepting.getAsBoolean() || paused.getAsBoolean() || source.exhausted())) {
            idleWaiters.signal();
        }
    }
}
