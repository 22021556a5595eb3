package io.leasehold.drain;

import io.leasehold.core.Backoff;
import io.leasehold.core.Clock;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.jboss.logging.Logger;

/**
 * Settles a claim, and when the settlement cannot be written (a full disk, an I/O error, an Error
 * while settling) keeps the claim: it is renewed like any other and the settlement is tried again at
 * the renewal ticks, with backoff, until it is written or the claim is found taken over. A holder
 * alive to settle a claim never lets it expire, so the outcome is never lost to a takeover.
 */
final class SettlementRetry {

    private static final Logger LOG = Logger.getLogger(SettlementRetry.class);

    /** One claim whose outcome waits to be written. */
    private static final class Waiting {
        final HeldClaim claim;
        final Outcome outcome;
        private final Consumer<AttemptEnd> settled;
        volatile int failures;
        /** On the monotonic clock: a wall clock stepped back must not hold a settlement up for the step. */
        volatile long nextTryNanos;
        /** Completed or cancelled (handed back at shutdown): not to be tried again. */
        private final AtomicBoolean ended = new AtomicBoolean();

        Waiting(HeldClaim claim, Outcome outcome, Consumer<AttemptEnd> settled) {
            this.claim = claim;
            this.outcome = outcome;
            this.settled = settled;
        }

        boolean ended() {
            return ended.get();
        }

        boolean end() {
            return ended.compareAndSet(false, true);
        }

        void complete(AttemptEnd where) {
            if (end()) {
                settled.accept(where);
            }
        }
    }

    private final Settlement settlement;
    private final Clock clock;
    private final Backoff backoff;
    private final DrainEvents events;
    private final DoubleSupplier random;
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

    SettlementRetry(Settlement settlement, Clock clock, Backoff backoff, DrainEvents events, DoubleSupplier random) {
        this.settlement = settlement;
        this.clock = clock;
        this.backoff = backoff;
        this.events = events;
        this.random = random;
    }

    /**
     * Settles now and tells {@code settled} where the item went; when this first try fails, tells it
     * once a later one succeeds (on the renewal thread), or "lost" when the claim is found taken over.
     */
    void settle(HeldClaim claim, Outcome outcome, Consumer<AttemptEnd> settled) {
        AttemptEnd where;
        try {
            where = settlement.apply(claim, outcome);
        } catch (Throwable e) { // an Error too: whatever it is, the claim must not be dropped
            Waiting entry = new Waiting(claim, outcome, settled);
            failed(entry, e);
            // Taken over meanwhile (the renewal found it gone): there is nothing left to settle.
            claim.onLost(() -> {
                waiting.remove(claim.id(), entry);
                entry.complete(AttemptEnd.LOST);
            });
            return;
        }
        settled.accept(where);
    }

    /** The claim is handed back at shutdown: its waiting settlement, if any, is never tried again. */
    /** Whether the outcome of this very claim waits here to be written. */
    boolean holds(HeldClaim claim) {
        Waiting entry = waiting.get(claim.id());
        return entry != null && entry.claim == claim;
    }

    void cancel(HeldClaim claim) {
        Waiting entry = waiting.get(claim.id());
        if (entry != null && entry.claim == claim && entry.end()) {
            waiting.remove(claim.id(), entry);
        }
    }

    /** Tries again every settlement whose backoff has passed; on the renewal tick, after the renewals. */
    void retryDue() {
        long now = clock.monotonicNanos();
        for (Waiting entry : List.copyOf(waiting.values())) {
            if (now - entry.nextTryNanos >= 0) {
                retry(entry);
            }
        }
    }

    /** Tries every waiting settlement once more, due or not: at shutdown, before the rest is handed back. */
    void retryAll() {
        List.copyOf(waiting.values()).forEach(this::retry);
    }

    int waiting() {
        return waiting.size();
    }

    private void retry(Waiting entry) {
        if (!waiting.remove(entry.claim.id(), entry)) {
            return; // another try has it, or its work ended
        }
        if (entry.ended()) {
            return;
        }
        // On the renewal thread (or a stop's): the settlement's lines name the item, as on its worker.
        try (ItemLogContext context = ItemLogContext.of(entry.claim)) {
            try {
                entry.complete(settlement.apply(entry.claim, entry.outcome));
            } catch (Throwable e) {
                failed(entry, e);
            }
        }
    }

    private void failed(Waiting entry, Throwable error) {
        entry.failures++;
        Duration wait = backoff.after(entry.failures, random);
        entry.nextTryNanos = clock.monotonicNanos() + wait.toNanos();
        // In the map before the claim is held again: a stop that finds it held must also find its outcome
        // waiting here, or it would cancel a decided outcome and hand the item back to run again.
        if (!entry.ended()) {
            waiting.put(entry.claim.id(), entry);
        }
        entry.claim.resumeHolding();
        events.settleFailed(entry.claim.id(), error.toString());
        LOG.errorf("could not settle %s as %s (failure %d): %s; it stays held and renewed, next try in %s",
                entry.claim.current(), entry.outcome.label(), entry.failures, error, wait);
    }
}
