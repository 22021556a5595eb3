package io.leasehold.drain;

import io.leasehold.core.HeldClaim;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jboss.logging.Logger;

/**
 * The drain's stops: every act cancelled at once when the lease is lost, or those under one lapsed borrowed
 * epoch, with no file or bus call (so they may run on the lease's timer); then, apart and blocking, the
 * hand-backs of the claims they stopped.
 */
final class ActStops {

    /** The drain's lines keep the one category operators filter on. */
    private static final Logger LOG = Logger.getLogger(Drainer.class);

    private final Spool spool;
    private final Map<String, HeldClaim> held;
    private final Map<HeldClaim, ClaimWork.Run> working;
    private final Settlement settlement;
    private final SettlementRetry settlementRetry;
    private final DrainTally tally;
    /** Claims whose attempts a stop ended, for the hand-backs that follow it (which may block). */
    private final Queue<HeldClaim> stopped = new ConcurrentLinkedQueue<>();

    ActStops(Spool spool, Map<String, HeldClaim> held, Map<HeldClaim, ClaimWork.Run> working, Settlement settlement,
            SettlementRetry settlementRetry, DrainTally tally) {
        this.spool = spool;
        this.held = held;
        this.working = working;
        this.settlement = settlement;
        this.settlementRetry = settlementRetry;
        this.tally = tally;
    }

    /**
     * Stops every act now and touches no file and no connection: nothing more is claimed and every running
     * attempt is cancelled (an exec child's group KILLed), so it may run on the lease's deadline timer. A
     * claim whose outcome waits to be written is left to the settlement retry: its handler is done. The
     * claims are handed back by {@code Drainer.stopNow} afterwards, however long a move waits on a dead link.
     */
    void stopAll() {
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
    void stopUnder(long epoch) {
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
    }

    /** Hands back the claims whose attempts were stopped; blocks on the spool (a dead link waits out its timeout). */
    void handBackStopped(String when) {
        for (HeldClaim claim = stopped.poll(); claim != null; claim = stopped.poll()) {
            giveBack(claim, when);
        }
    }

    /** Cancels the claim's work, if any, and hands it back, unless it is finishing already. */
    void handBack(HeldClaim claim, String when) {
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
