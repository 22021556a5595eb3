package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Sightings;
import io.leasehold.core.TakeoverRule;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.PastAttempt;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Takes over a claim whose lease ran out: renames it to a new generation (attempt + 1), which only
 * one instance can do. By default its holder must also have been seen not renewing it, on this
 * instance's own monotonic clock, so a live holder keeps its claims whatever its clock says. A claim parked for a retry is taken over the same way. A takeover that would
 * pass max-attempts sends the item to failed/ instead, so a poison item that kills its holder every
 * time stops after max-attempts with the reason. A claim whose file is junk is never taken over.
 */
final class Takeover {

    private static final Logger LOG = Logger.getLogger(Takeover.class);

    private final Spool spool;
    private final Clock clock;
    private final LeaseTerms terms;
    private final DrainSettings settings;
    private final DrainEvents events;
    private final Sightings sightings;
    private final FarAheadRetries farAhead;

    Takeover(Spool spool, Clock clock, LeaseTerms terms, DrainSettings settings, DrainEvents events,
            Sightings sightings) {
        this.sightings = sightings;
        this.farAhead = new FarAheadRetries(spool, terms, settings.backoff().max());
        this.spool = spool;
        this.clock = clock;
        this.terms = terms;
        this.settings = settings;
        this.events = events;
    }

    /**
     * Whether {@code seen} may be taken over now (see {@link TakeoverRule}); a retry parked further ahead
     * than any backoff (by a wall clock stepped ahead) counts as due now ({@link FarAheadRetries}).
     */
    boolean isDue(ClaimName seen, Instant now) {
        if (!terms.isTakeable(seen, now) && !farAhead.dueNow(seen, now)) {
            return false;
        }
        return settings.takeover() == TakeoverRule.READING
                || sightings.unchangedFor(seen, terms.unrenewedLongEnough(), clock.monotonicNanos());
    }

    /** Forgets what it knew of names no longer in claimed/. */
    void listed(List<ClaimName> claims) {
        farAhead.listed(claims);
    }

    /** The new claim to work on, or empty when not due, lost to another instance, or given up. */
    Optional<ClaimName> takeOver(ClaimName seen) throws IOException {
        Instant now = clock.now();
        if (!isDue(seen, now)) {
            return Optional.empty();
        }
        Optional<ClaimName> took = spool.takeOver(seen, now);
        if (took.isEmpty()) {
            // Renewed by its holder, taken by another instance first, junk (reported by the spool, left under
            // its name), or a half-done settlement or hand-back whose target wins.
            return Optional.empty();
        }
        ClaimName taken = took.get();
        Generation next = taken.generation(); // a scheduled claim's first attempt, or the next one (Spool.takerOf)
        // The lines about the item taken over name it and the attempt it is taken for.
        try (ItemLogContext context = ItemLogContext.of(seen.id(), next.attempt(), null)) {
            try {
                return afterRename(seen, taken, next);
            } catch (IOException e) {
                // The claim is ours now whatever the bookkeeping says: work on it rather than orphan it.
                LOG.warnf("took over %s but could not read or write its reason: %s", seen, e.getMessage());
                events.tookOver(seen.id(), next.attempt());
                return Optional.of(taken);
            }
        }
    }

    private Optional<ClaimName> afterRename(ClaimName seen, ClaimName taken, Generation next) throws IOException {
        // The record of the claim taken over says what its holder did last; the taker writes its own.
        Optional<AttemptRecord> prior = spool.record(seen.id(), seen.generation());
        AttemptRecord.Kind did = prior.map(AttemptRecord::kind).orElse(AttemptRecord.Kind.NOTE);
        if (did == AttemptRecord.Kind.FAILED) {
            finishVerdict(seen, taken, prior.get());
            return Optional.empty();
        }
        // Parked for a retry, or until its scheduled time: nobody abandoned it.
        boolean parkedForRetry = did == AttemptRecord.Kind.RETRY || did == AttemptRecord.Kind.SCHEDULED;
        int abandoned = prior.map(AttemptRecord::abandoned).orElse(0) + (parkedForRetry ? 0 : 1);
        List<PastAttempt> history = AttemptRecord.historyOf(prior);
        if (!parkedForRetry) {
            history = new ArrayList<>(history);
            history.add(new PastAttempt(seen.generation().attempt(), seen.generation().holder().orElse(null), null,
                    null, null, "abandoned", "its holder stopped renewing the claim; taken over at " + clock.now()));
        }
        if (next.attempt() > settings.maxAttempts()) {
            giveUp(seen, taken, prior, parkedForRetry, abandoned, history);
            return Optional.empty();
        }
        if (!parkedForRetry) {
            LOG.warnf("took over %s: its holder stopped renewing it (attempt %d of %d)", seen, next.attempt(),
                    settings.maxAttempts());
            spool.writeRecord(seen.id(), next, new AttemptRecord(AttemptRecord.Kind.NOTE, abandoned,
                    "attempt " + seen.generation().attempt() + " was abandoned by its holder", history));
        } else {
            // Carried over: the abandoned count, the history, and the reason it was parked with
            // (StaleRefusals counts refusals in a row from it).
            spool.writeRecord(seen.id(), next, prior.get().as(AttemptRecord.Kind.NOTE));
        }
        spool.dropEarlierRecords(taken);
        events.tookOver(seen.id(), next.attempt());
        return Optional.of(taken);
    }

    /** The holder decided the item fails and stopped before it moved it: the taker moves it, once. */
    private void finishVerdict(ClaimName seen, ClaimName taken, AttemptRecord verdict) throws IOException {
        spool.writeRecord(taken.id(), taken.generation(), verdict);
        if (spool.settle(taken, ItemState.FAILED)) {
            LOG.warnf("item %s failed for good after %s (its holder stopped before it moved it): %s", seen.id(),
                    Settlement.attempts(seen.generation().attempt()), verdict.text());
            events.settled(seen.id(), AttemptEnd.FAILED);
        }
    }

    private void giveUp(ClaimName seen, ClaimName taken, Optional<AttemptRecord> prior, boolean parkedForRetry,
            int abandoned, List<PastAttempt> history) throws IOException {
        int attempts = seen.generation().attempt();
        String text;
        if (parkedForRetry) {
            text = "gave up after " + attempts + " attempts; last: " + prior.get().text();
        } else if (abandoned >= attempts) {
            text = "abandoned " + abandoned + " times";
        } else {
            text = "gave up after " + attempts + " attempts (abandoned " + abandoned + " times); last: attempt "
                    + attempts + " was abandoned by its holder";
        }
        spool.writeRecord(taken.id(), taken.generation(),
                new AttemptRecord(AttemptRecord.Kind.FAILED, abandoned, text, history));
        if (spool.settle(taken, ItemState.FAILED)) {
            LOG.warnf("item %s failed for good after %s: %s", seen.id(), Settlement.attempts(attempts), text);
            events.settled(seen.id(), AttemptEnd.FAILED);
        }
    }
}
