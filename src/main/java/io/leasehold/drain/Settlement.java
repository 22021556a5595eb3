package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Outcome;
import io.leasehold.core.Sightings;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.PastAttempt;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.jboss.logging.Logger;

/**
 * Ends a claim according to how its attempt went: done, failed, or parked for a retry (a receiver's
 * refusal of a stale epoch too); or hands it back when this instance's own gate refused the act.
 * The file is found by id and generation, which a renewal never changes, and looked for again when
 * the renewal renamed it between the look and the move.
 */
final class Settlement {

    private static final Logger LOG = Logger.getLogger(Settlement.class);
    private static final int LOOKS = 3;

    /** One rename of a claim's file; false when the file was not there under that name. */
    @FunctionalInterface
    interface ClaimMove {
        boolean apply(ClaimName current) throws IOException;
    }

    private final Spool spool;
    private final Clock clock;
    private final LeaseTerms terms;
    private final DrainSettings settings;
    private final DrainEvents events;
    private final DoubleSupplier random;
    private final Sightings sightings;
    private final Consumer<String> handingBack;

    /**
     * {@code handingBack} hears of an item about to go back to pending/ for the lease holder, before it is
     * there: a watch of pending/ reports it at once, and this instance must not claim it again first.
     */
    Settlement(Spool spool, Clock clock, LeaseTerms terms, DrainSettings settings, DrainEvents events,
            DoubleSupplier random, Sightings sightings, Consumer<String> handingBack) {
        this.handingBack = handingBack;
        this.sightings = sightings;
        this.spool = spool;
        this.clock = clock;
        this.terms = terms;
        this.settings = settings;
        this.events = events;
        this.random = random;
    }

    /** Applies the outcome; returns where the item went (done, failed, retried or lost). */
    AttemptEnd apply(HeldClaim claim, Outcome outcome) throws IOException {
        if (outcome instanceof Outcome.Lost || !claim.beginFinishing()) {
            if (claim.markLost()) {
                LOG.warnf("claim %s is gone: another instance took it over; settled nothing", claim.current());
                events.lost(claim.id());
            }
            return AttemptEnd.LOST;
        }
        AttemptEnd where;
        if (outcome instanceof Outcome.Done) {
            PastAttempt attempt = ended(claim, outcome, null);
            where = move(claim, name -> spool.settleDone(name, attempt)) ? AttemptEnd.DONE : AttemptEnd.LOST;
        } else if (outcome instanceof Outcome.Stale stale) {
            where = refused(claim, stale.reason(), ended(claim, outcome, stale.reason()));
        } else if (outcome instanceof Outcome.Failed failed) {
            where = fail(claim, failed.reason(), ended(claim, outcome, failed.reason()));
        } else {
            String reason = ((Outcome.Retry) outcome).reason();
            where = retry(claim, reason, ended(claim, outcome, reason));
        }
        if (where == AttemptEnd.LOST) {
            LOG.warnf("claim %s was taken over before it could be settled; settled nothing", claim.current());
            events.lost(claim.id());
        } else {
            events.settled(claim.id(), where);
        }
        return where;
    }

    /** The attempt that just ended, as the item's history keeps it. */
    private PastAttempt ended(HeldClaim claim, Outcome outcome, String reason) {
        return new PastAttempt(claim.attempt(), claim.generation().holder().orElse(null), claim.epoch(),
                claim.startedAt(), clock.now(), outcome.label(), reason);
    }

    private AttemptEnd fail(HeldClaim claim, String reason, PastAttempt attempt) throws IOException {
        // Recorded first: a holder that stops right here leaves a verdict its taker carries out.
        recordReason(claim, AttemptRecord.Kind.FAILED, reason, attempt);
        if (!move(claim, name -> spool.settle(name, ItemState.FAILED))) {
            return AttemptEnd.LOST;
        }
        // A permanent failure is an operator's business: one line with what they need to act on it.
        LOG.warnf("item %s failed for good after %s: %s", claim.id(), attempts(claim.attempt()), reason);
        return AttemptEnd.FAILED;
    }

    /**
     * Back to pending/ for the current lease holder, no attempt counted: this instance's gate refused
     * the act. Returns {@link AttemptEnd#HANDED_BACK}, or {@link AttemptEnd#LOST} when the claim was taken over meanwhile.
     */
    AttemptEnd handBackForHolder(HeldClaim claim, String why) throws IOException {
        return handBack(claim, "for the current lease holder: " + why);
    }

    /** Back to pending/ at the same attempt, none counted: the work never started, through no fault of the item. */
    AttemptEnd handBack(HeldClaim claim, String why) throws IOException {
        if (!claim.beginFinishing()) {
            return AttemptEnd.LOST;
        }
        LOG.infof("item %s is handed back %s", claim.id(), why);
        handingBack.accept(claim.id());
        AttemptEnd where = move(claim, spool::handBack) ? AttemptEnd.HANDED_BACK : AttemptEnd.LOST;
        if (where == AttemptEnd.LOST) {
            events.lost(claim.id());
        } else {
            events.settled(claim.id(), where);
        }
        return where;
    }

    /** "1 attempt", "3 attempts": for the lines that tell of a permanent failure. */
    static String attempts(int n) {
        return n == 1 ? "1 attempt" : n + " attempts";
    }

    /** A receiver refused the epoch as stale: an attempt like any other, counted towards max-attempts. */
    private AttemptEnd refused(HeldClaim claim, String detail, PastAttempt attempt) throws IOException {
        int refusals = StaleRefusals.before(spool.record(claim.id(), claim.generation())) + 1;
        if (claim.attempt() >= settings.maxAttempts()) {
            return fail(claim, StaleRefusals.gaveUp(refusals, claim.attempt(), detail), attempt);
        }
        return park(claim, StaleRefusals.parked(refusals, detail), attempt);
    }

    private AttemptEnd retry(HeldClaim claim, String reason, PastAttempt attempt) throws IOException {
        if (claim.attempt() >= settings.maxAttempts()) {
            return fail(claim, "gave up after " + claim.attempt() + " attempts; last: " + reason, attempt);
        }
        return park(claim, reason, attempt);
    }

    private AttemptEnd park(HeldClaim claim, String reason, PastAttempt attempt) throws IOException {
        Instant retryAt = clock.now().plus(settings.backoff().after(claim.attempt(), random));
        Instant parkedReading = terms.readingTakeableAt(retryAt);
        recordReason(claim, AttemptRecord.Kind.RETRY, reason, attempt);
        // Parked: the claim looks abandoned from retryAt on, and whoever takes it counts the attempt.
        boolean parked = move(claim, name -> spool.restamp(name, name.renewedAt(parkedReading)));
        if (parked) {
            // Nobody renews a parked claim: this instance may take it again at retryAt without watching it.
            sightings.letGo(claim.current().renewedAt(parkedReading), clock.monotonicNanos());
            LOG.infof("item %s attempt %d will be retried from %s: %s", claim.id(), claim.attempt(), retryAt, reason);
        }
        return parked ? AttemptEnd.RETRIED : AttemptEnd.LOST;
    }

    /**
     * Writes this claim's own record, with the history it carried and this attempt added, and only while
     * the claim is still this holder's: a late holder writes nothing, and could only ever write its own
     * generation's record, which nobody reads.
     */
    private void recordReason(HeldClaim claim, AttemptRecord.Kind kind, String reason, PastAttempt attempt)
            throws IOException {
        if (spool.find(claim.id(), claim.generation()).isEmpty()) {
            return;
        }
        AttemptRecord own = spool.record(claim.id(), claim.generation()).orElse(AttemptRecord.note(0, ""));
        spool.writeRecord(claim.id(), claim.generation(), own.then(kind, reason).adding(attempt));
    }

    /** Applies {@code move} to the claim's file under its current name, whatever the renewal did to it. */
    boolean move(HeldClaim claim, ClaimMove move) throws IOException {
        ClaimName name = claim.current();
        for (int look = 0; look < LOOKS; look++) {
            if (move.apply(name)) {
                return true;
            }
            Optional<ClaimName> found = spool.find(claim.id(), claim.generation());
            if (found.isEmpty()) {
                return false;
            }
            name = found.get();
        }
        return false;
    }
}
