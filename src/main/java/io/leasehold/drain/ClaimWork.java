package io.leasehold.drain;

import io.leasehold.core.Clock;
import io.leasehold.core.HandlerOutput;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.Outcome;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.LeaseGate;
import io.leasehold.spool.Spool;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The work on one claim: read the payload (the look just before work starts), run the handler until
 * it answers, times out, or the claim is lost ({@link Attempt}), then settle. Cancelling it cancels
 * the handler. Every failure inside (an unreadable or oversized payload, a handler
 * that throws or fails, an Error, a settlement that cannot be written) ends as an outcome with its
 * reason, never as a failed pipeline that would leave the claim to expire.
 */
final class ClaimWork {

    private static final Logger LOG = Logger.getLogger(ClaimWork.class);

    private final Clock clock;
    private final Handler handler;
    private final LeaseGate gate;
    private final Duration timeout;
    private final Executor workers;
    private final Settlement settlement;
    private final SettlementRetry retries;
    private final DrainEvents events;
    private final LookBeforeWork looks;
    private final OutputKeeping outputs;

    ClaimWork(Spool spool, Clock clock, Handler handler, LeaseGate gate, Duration timeout, Executor workers,
            Settlement settlement, SettlementRetry retries, DrainEvents events, OutputKeeping outputs) {
        this.outputs = outputs;
        this.clock = clock;
        this.handler = handler;
        this.gate = gate;
        this.looks = new LookBeforeWork(spool, gate);
        this.timeout = timeout;
        this.workers = workers;
        this.settlement = settlement;
        this.retries = retries;
        this.events = events;
    }

    /** The work on one claim; cancelling it, before or after it started, stops the handler and drops the outcome. */
    interface Run {
        /** Works on the claim on the calling thread; does nothing once cancelled. */
        void start();

        void cancel();

        /**
         * Stops the act unless its handler has answered already (that outcome is settled as usual): true
         * when it stopped it, and the claim is then the caller's to hand back.
         */
        boolean stopAct();
    }

    /**
     * Works on the claim on the calling thread, which must be a worker: the look, the handler, and the
     * settlement when the handler answers at once. {@code done} gets where the item went ({@link AttemptEnd})
     * exactly once: before
     * this returns when everything finished at once, else later on a worker (or on the renewal thread,
     * when a settlement that could not be written is tried again there). Never fails: whatever goes
     * wrong inside the attempt becomes its outcome.
     */
    Run on(HeldClaim claim, Consumer<AttemptEnd> done) {
        // Not started here: the caller registers it first, so a stop can cancel it from the first moment.
        return new OneRun(claim, done);
    }

    /**
     * One claim's run: calls {@code done} once, whether it finished, was cancelled, or both raced. Its
     * phase moves once, by compare-and-set, from the look (nothing acted yet) either to acting (the
     * attempt, or the look's own outcome, goes on) or to stopped by {@link #stopAct}: so a stop either
     * comes before anything of the run acts, or finds the attempt it must cancel already published.
     */
    private final class OneRun implements Run {
        private static final int LOOKING = 0;
        private static final int ACTING = 1;
        private static final int STOPPED = 2;
        private final HeldClaim claim;
        private final Consumer<AttemptEnd> done;
        private volatile Thread starter;
        private final AtomicBoolean finished = new AtomicBoolean();
        private final java.util.concurrent.atomic.AtomicInteger phase = new java.util.concurrent.atomic.AtomicInteger(LOOKING);
        private volatile boolean starting = true;
        private volatile Attempt attempt;
        /** The handler's last report: kept when the outcome is settled. */
        private final AtomicReference<HandlerOutput> reported = new AtomicReference<>();

        OneRun(HeldClaim claim, Consumer<AttemptEnd> done) {
            this.claim = claim;
            this.done = done;
        }

        @Override
        public void start() {
            starter = Thread.currentThread();
            if (finished.get()) {
                return; // cancelled before it started
            }
            try (ItemLogContext context = ItemLogContext.of(claim)) {
                Instant began = clock.now();
                LookBeforeWork.Look look = looks.at(claim);
                claim.began(began, look.payload() == null ? null : look.epoch());
                boolean acts = look.payload() != null && !look.junk() && look.refused() == null
                        && look.unreachable() == null && look.outcome() == null;
                Attempt made = acts ? Attempt.made(claim, clock, events, this::decided) : null;
                attempt = made; // published before the phase moves: a stop from then on cancels it
                if (!phase.compareAndSet(LOOKING, ACTING)) {
                    return; // stopped during the look: nothing acted, and its stopper hands the claim back
                }
                if (look.payload() != null) {
                    ItemLogContext.epoch(look.epoch());
                }
                if (look.junk()) {
                    finish(leftAlone(claim));
                } else if (look.refused() != null) {
                    finish(notHolder(claim, look.refused()));
                } else if (look.unreachable() != null) {
                    finish(unreadable(claim, look.unreachable()));
                } else if (look.outcome() != null) {
                    settle(look.outcome());
                } else if (!finished.get()) { // a stop during the look cancels before any handler starts
                    made.run(handler, new WorkItem(claim.id(), claim.attempt(), look.payload(), look.epoch(),
                            clock.now(), reported::set), timeout);
                    if (finished.get()) {
                        made.cancel(); // cancelled while the handler started: it saw no attempt to stop
                    }
                }
            } finally {
                starting = false;
            }
        }

        /**
         * Settles on this thread when the outcome came while starting (no thread switch per item);
         * an outcome that came later, on an event loop, a timer or the renewal thread, is settled on a
         * worker: those threads never do file I/O.
         */
        private void decided(Outcome outcome) {
            if (starting && Thread.currentThread() == starter) {
                settle(outcome);
            } else {
                workers.execute(ItemLogContext.around(claim, () -> settle(outcome)));
            }
        }

        private void settle(Outcome outcome) {
            if (finished.get()) {
                return; // cancelled: the claim is being handed back
            }
            if (gate.gatesSettlements() && !(outcome instanceof Outcome.Lost)) {
                try {
                    gate.epochForAct();
                } catch (ActRefused refused) {
                    // Not the holder any more: move nothing; the claim expires and the holder takes it over.
                    claim.markLost();
                    finish(AttemptEnd.LOST);
                    return;
                }
            }
            HandlerOutput shown = reported.getAndSet(null);
            retries.settle(claim, outcome, where -> {
                // Once settled, and only then: a holder that lost the item (a late one, or one whose item was
                // purged meanwhile) keeps nothing, so no output outlives its item or passes for another attempt.
                if (where == AttemptEnd.DONE || where == AttemptEnd.FAILED || where == AttemptEnd.RETRIED) {
                    outputs.keep(claim, shown, clock.now(), events);
                }
                finish(where);
            });
        }

        private void finish(AttemptEnd where) {
            if (finished.compareAndSet(false, true)) {
                done.accept(where);
            }
        }

        @Override
        public void cancel() {
            Attempt a = attempt;
            if (a != null) {
                a.cancel();
            }
            retries.cancel(claim);
            finish(AttemptEnd.CANCELLED);
        }

        @Override
        public boolean stopAct() {
            if (phase.compareAndSet(LOOKING, STOPPED)) {
                return stopped(); // still in its look (or not begun): nothing of it acted
            }
            Attempt a = attempt;
            // Acting with no attempt: the look's own outcome (gone, oversized, junk, refused) is being
            // settled, which is no act under the epoch. An attempt already decided is settled as usual.
            return a != null && a.cancel() && stopped();
        }

        private boolean stopped() {
            if (finished.compareAndSet(false, true)) {
                done.accept(AttemptEnd.CANCELLED);
                return true;
            }
            return false;
        }
    }

    /**
     * The gate refused the act: this instance is not the lease holder any more (and exits 3). Not the
     * item's fault, so no attempt is counted: it goes back to pending/ for the holder, or in leader mode,
     * where only the holder moves items, it is left to expire and the holder takes it over.
     */
    private AttemptEnd notHolder(HeldClaim claim, String why) {
        if (!gate.gatesSettlements()) {
            try {
                return settlement.handBackForHolder(claim, why);
            } catch (Throwable e) {
                LOG.warnf("could not hand %s back; its lease will run out and the holder takes it over: %s",
                        claim.current(), e);
                claim.resumeHolding();
            }
        }
        claim.markLost();
        return AttemptEnd.LOST;
    }

    /**
     * The spool did not answer while the payload was read (NATS restarting, say): not the item's fault, so
     * no attempt is counted and it goes back to pending/ at the same attempt; when the spool cannot take it
     * back either, it is left to expire and be taken over.
     */
    private AttemptEnd unreadable(HeldClaim claim, String why) {
        try {
            return settlement.handBack(claim, why);
        } catch (Throwable e) {
            LOG.warnf("could not hand %s back; its lease will run out and it is taken over: %s", claim.current(), e);
            claim.resumeHolding();
        }
        claim.markLost();
        return AttemptEnd.LOST;
    }

    /** A junk claim file is left where it is, under the name every instance knows, and not renewed. */
    private AttemptEnd leftAlone(HeldClaim claim) {
        if (claim.beginFinishing()) {
            LOG.warnf("left alone: claimed/%s is not a plain file of the spool's own; it is never sent to a handler, "
                    + "taken over or moved (remove or replace it)", claim.current().fileName());
        }
        return AttemptEnd.JUNK;
    }
}
