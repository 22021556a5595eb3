package io.leasehold.drain;

import io.leasehold.core.Blocking;
import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.Outcome;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.LeaseGate;
import io.leasehold.spool.Spool;
import io.leasehold.spool.UnfitFileException;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.jboss.logging.Logger;

/**
 * The work on one claim, as one pipeline: read the payload (the look just before work starts), run
 * the handler until it answers, times out, or the claim is lost, then settle. Cancelling the
 * pipeline cancels the handler. Every failure inside (an unreadable or oversized payload, a handler
 * that throws or fails, an Error, a settlement that cannot be written) ends as an outcome with its
 * reason, never as a failed pipeline that would leave the claim to expire.
 */
final class ClaimWork {

    private static final Logger LOG = Logger.getLogger(ClaimWork.class);
    private static final int LOOKS = 3;
    /** Where a claim whose file is junk went: nowhere, it was left alone. */
    static final String JUNK = "junk";

    private final Spool spool;
    private final Clock clock;
    private final Handler handler;
    private final LeaseGate gate;
    private final Duration timeout;
    private final Executor workers;
    private final Settlement settlement;
    private final SettlementRetry retries;
    private final DrainEvents events;

    ClaimWork(Spool spool, Clock clock, Handler handler, LeaseGate gate, Duration timeout, Executor workers,
            Settlement settlement, SettlementRetry retries, DrainEvents events) {
        this.spool = spool;
        this.clock = clock;
        this.handler = handler;
        this.gate = gate;
        this.timeout = timeout;
        this.workers = workers;
        this.settlement = settlement;
        this.retries = retries;
        this.events = events;
    }

    /**
     * Where the item went: "done", "failed", "retried", "lost", {@link Settlement#HANDED_BACK} or
     * {@link #JUNK}. Never fails: whatever goes wrong inside the attempt becomes its outcome.
     */
    Uni<String> on(HeldClaim claim) {
        return Blocking.call(workers, () -> look(claim))
                .onItem().transformToUni(look -> {
                    if (look.junk()) {
                        return Uni.createFrom().item(leftAlone(claim));
                    }
                    if (look.refused() != null) {
                        return Blocking.call(workers, () -> notHolder(claim, look.refused()));
                    }
                    Uni<Outcome> outcome = look.outcome() != null ? Uni.createFrom().item(look.outcome())
                            : attempt(claim, look.payload(), look.epoch());
                    return outcome.onItem().transformToUni(o -> settle(claim, o));
                });
    }

    /**
     * What the look before work found: the payload and the epoch to work under, an outcome without work
     * (lost, failed, retry), a junk file, or the gate's refusal.
     */
    private record Look(byte[] payload, long epoch, Outcome outcome, boolean junk, String refused) {
        static Look of(Outcome outcome) {
            return new Look(null, 0, outcome, false, null);
        }
    }

    private Look look(HeldClaim claim) {
        Optional<byte[]> payload;
        try {
            payload = readIfHeld(claim);
        } catch (UnfitFileException e) {
            // Too large can never succeed; junk is not an item at all (reported by the spool).
            return e.kind() == UnfitFileException.Kind.OVERSIZED ? Look.of(Outcome.failed(e.getMessage()))
                    : new Look(null, 0, null, true, null);
        } catch (Throwable e) { // an I/O error, or an Error such as OutOfMemoryError: the attempt's outcome
            return Look.of(Outcome.retry("could not read the payload: " + e));
        }
        if (payload.isEmpty()) {
            return Look.of(Outcome.lost());
        }
        try {
            return new Look(payload.get(), gate.epochForAct(), null, false, null);
        } catch (ActRefused refused) {
            return new Look(null, 0, null, false, refused.getMessage());
        }
    }

    /**
     * The gate refused the act: this instance is not the lease holder any more (and exits 3). Not the
     * item's fault, so no attempt is counted: it goes back to pending/ for the holder, or in leader mode,
     * where only the holder moves items, it is left to expire and the holder takes it over.
     */
    private String notHolder(HeldClaim claim, String why) {
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
        return "lost";
    }

    /** A junk claim file is left where it is, under the name every instance knows, and not renewed. */
    private String leftAlone(HeldClaim claim) {
        if (claim.beginFinishing()) {
            LOG.warnf("left alone: claimed/%s is not a plain file of the spool's own; it is never sent to a handler, "
                    + "taken over or moved (remove or replace it)", claim.current().fileName());
        }
        return JUNK;
    }

    /**
     * Settles on the thread the outcome came on, unless that is an event loop: most handlers answer on
     * a worker already, and another hop would cost a thread switch per item for nothing.
     */
    private Uni<String> settle(HeldClaim claim, Outcome outcome) {
        if (gate.gatesSettlements() && !(outcome instanceof Outcome.Lost)) {
            try {
                gate.epochForAct();
            } catch (ActRefused refused) {
                // Not the holder any more: move nothing; the claim expires and the holder takes it over.
                claim.markLost();
                return Uni.createFrom().item("lost");
            }
        }
        if (io.vertx.core.Context.isOnEventLoopThread()) {
            return Blocking.call(workers, () -> retries.settle(claim, outcome)).flatMap(where -> where);
        }
        return retries.settle(claim, outcome);
    }

    /** Reading the payload is the look at the directory just before work starts. */
    private Optional<byte[]> readIfHeld(HeldClaim claim) throws IOException {
        ClaimName name = claim.current();
        for (int look = 0; look < LOOKS; look++) {
            try {
                return Optional.of(spool.payload(name));
            } catch (NoSuchFileException e) {
                Optional<ClaimName> found = spool.find(claim.id(), claim.generation());
                if (found.isEmpty()) {
                    return Optional.empty();
                }
                name = found.get(); // the renewal renamed it meanwhile
            }
        }
        return Optional.empty();
    }

    private Uni<Outcome> attempt(HeldClaim claim, byte[] payload, long epoch) {
        Instant started = clock.now();
        WorkItem item = new WorkItem(claim.id(), claim.attempt(), payload, epoch);
        // deferred: a handler that throws (an Error too) fails the Uni instead of escaping.
        Uni<Outcome> work = Uni.createFrom().deferred(() -> handler.handle(item))
                .onItem().ifNull().continueWith(() -> Outcome.retry("the handler answered nothing"))
                .onFailure().recoverWithItem(e -> Outcome.retry("handler failed: " + e));
        if (!timeout.isZero()) {
            work = work.ifNoItem().after(timeout).recoverWithItem(() -> Outcome.retry("timed out after " + timeout));
        }
        Uni<Outcome> lost = Uni.createFrom().emitter(e -> claim.onLost(() -> e.complete(Outcome.lost())));
        // Whichever comes first wins; the other is cancelled, so a lost claim stops the handler at once.
        return Uni.combine().any().of(work, lost).invoke(outcome -> events.attempted(claim.id(), outcome.label(),
                Duration.between(started, clock.now())));
    }
}
