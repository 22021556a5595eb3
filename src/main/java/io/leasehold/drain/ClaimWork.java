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
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The work on one claim, as one pipeline: read the payload (the look just before work starts), run
 * the handler until it answers, times out, or the claim is lost, then settle. Cancelling the
 * pipeline cancels the handler.
 */
final class ClaimWork {

    private static final int LOOKS = 3;

    private final Spool spool;
    private final Clock clock;
    private final Handler handler;
    private final LeaseGate gate;
    private final Duration timeout;
    private final Executor workers;
    private final Settlement settlement;
    private final DrainEvents events;

    ClaimWork(Spool spool, Clock clock, Handler handler, LeaseGate gate, Duration timeout, Executor workers,
            Settlement settlement, DrainEvents events) {
        this.spool = spool;
        this.clock = clock;
        this.handler = handler;
        this.gate = gate;
        this.timeout = timeout;
        this.workers = workers;
        this.settlement = settlement;
        this.events = events;
    }

    /** Where the item went: "done", "failed", "retried" or "lost". */
    Uni<String> on(HeldClaim claim) {
        return Blocking.call(workers, () -> readIfHeld(claim))
                .onItem().transformToUni(payload -> payload.isEmpty()
                        ? Uni.createFrom().item(Outcome.lost())
                        : attempt(claim, payload.get()))
                .onItem().transformToUni(outcome -> settle(claim, outcome));
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
            return Blocking.call(workers, () -> settlement.apply(claim, outcome));
        }
        try {
            return Uni.createFrom().item(settlement.apply(claim, outcome));
        } catch (IOException e) {
            return Uni.createFrom().failure(e);
        }
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

    private Uni<Outcome> attempt(HeldClaim claim, byte[] payload) {
        long epoch;
        try {
            epoch = gate.epochForAct();
        } catch (ActRefused refused) {
            return Uni.createFrom().item(Outcome.stale(refused.getMessage()));
        }
        Instant started = clock.now();
        WorkItem item = new WorkItem(claim.id(), claim.attempt(), payload, epoch);
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
