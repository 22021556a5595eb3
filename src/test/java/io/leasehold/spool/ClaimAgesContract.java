package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.leasehold.core.ClaimName;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The stuck-claim figures ({@link ItemStore#claimAgesNow}) of one backend, on the driven clock: a claim's
 * age runs from when its holder took it, through renewals; a takeover starts it afresh; parked claims
 * (a retry's backoff, a schedule) are not running and never count. Each backend's item store test runs it,
 * with a way to bring its memory up to date.
 */
public abstract class ClaimAgesContract extends HistoryContract {

    /** Three leases, the default of leasehold.metrics.stuck-after-leases. */
    private static final Duration STUCK = TERMS.lease().multipliedBy(3);

    /** What the store's memory holds once it has seen every move made so far (a recount, the watch caught up). */
    protected abstract ClaimAges seen(Duration bound) throws Exception;

    /** Puts junk (no item's file) under {@code name} where claims are; false on a backend that has no such thing. */
    protected boolean putJunkClaim(ClaimName name) throws Exception {
        return false;
    }

    private ClaimName claim(Spool by, String id) throws Exception {
        store.enqueue(id, new ByteArrayInputStream(new byte[] {1}), MAX);
        Optional<ClaimName> claim = by.claim(id, clock.now());
        assertTrue(claim.isPresent(), id + " claimed");
        return claim.get();
    }

    /** Renews {@code claim} every lease/3 for {@code leases} leases, the store looking after every move. */
    private ClaimName renewFor(ClaimName claim, int leases) throws Exception {
        ClaimName current = claim;
        for (int i = 0; i < 3 * leases; i++) {
            clock.advance(TERMS.renewEvery());
            ClaimName renewed = current.renewedAt(clock.now());
            assertTrue(spool.restamp(current, renewed), "renewed");
            current = renewed;
            seen(STUCK);
        }
        return current;
    }

    @Test
    void aClaimHeldPastTheBoundCountsFromItsStartAndARenewedYoungOneDoesNot() throws Exception {
        Instant start = clock.now();
        ClaimName old = claim(spool, "old");
        seen(STUCK);
        old = renewFor(old, 2);
        ClaimName young = claim(spool, "young");
        seen(STUCK);
        for (int i = 0; i < 6; i++) { // both renewed for two more leases
            clock.advance(TERMS.renewEvery());
            ClaimName o = old.renewedAt(clock.now());
            ClaimName y = young.renewedAt(clock.now());
            assertTrue(spool.restamp(old, o) && spool.restamp(young, y), "renewed");
            old = o;
            young = y;
            seen(STUCK);
        }
        clock.advance(Duration.ofSeconds(1));

        ClaimAges ages = seen(STUCK);
        assertEquals(Duration.between(start, clock.now()).toMillis(), ages.oldestMs(),
                "the oldest counts from its claim, not from its last renewal");
        assertEquals(1, ages.olderThanBound(), "held 4 leases and a second: past 3; the young one held 2 leases");
        assertEquals(0, seen(TERMS.lease().multipliedBy(5)).olderThanBound(), "neither is past 5 leases");
        assertEquals(2, seen(TERMS.lease()).olderThanBound(), "both are past one lease");
    }

    @Test
    void aClaimParkedForARetryIsNotCounted() throws Exception {
        ClaimName held = claim(spool, "parked");
        seen(STUCK);
        clock.advance(TERMS.renewEvery());
        spool.writeRecord(held.id(), held.generation(), AttemptRecord.note(0, "HTTP 503").as(AttemptRecord.Kind.RETRY));
        // As a settlement parks it: renamed to the reading that makes it takeable once its backoff is over.
        assertTrue(spool.restamp(held, held.renewedAt(TERMS.readingTakeableAt(clock.now().plusSeconds(30)))));
        clock.advance(TERMS.lease().multipliedBy(10)); // nobody took it since
        ClaimName running = claim(spool, "running");
        clock.advance(Duration.ofSeconds(5));

        ClaimAges ages = seen(STUCK);
        assertEquals(5_000, ages.oldestMs(), "only the running claim counts; the parked one waits ten leases");
        assertEquals(0, ages.olderThanBound());
        assertEquals(1, seen(Duration.ofSeconds(1)).olderThanBound(), running + " alone is past 1 s");
    }

    @Test
    void aScheduledItemIsNotCounted() throws Exception {
        store.enqueue("later", new ByteArrayInputStream(new byte[] {1}), MAX, clock.now().plusSeconds(1));
        assertEquals(ItemView.SCHEDULED, store.lookup("later").orElseThrow().state());
        clock.advance(TERMS.lease().multipliedBy(10)); // its time came long ago; nobody took it

        assertEquals(ClaimAges.NONE, seen(STUCK), "a parked claim's reading is long past, and still it runs nothing");
    }

    @Test
    void aClaimTakenOverCountsFromTheTakeover() throws Exception {
        ClaimName first = claim(spool, "taken");
        seen(STUCK);
        clock.advance(TERMS.lease().multipliedBy(4)); // its holder stopped renewing
        assertEquals(1, seen(STUCK).olderThanBound(), "held four leases by a holder that stopped");
        ClaimName taken = theirs.takeOver(first, clock.now()).orElseThrow();
        clock.advance(Duration.ofSeconds(7));

        ClaimAges ages = seen(STUCK);
        assertEquals(7_000, ages.oldestMs(), "the new holder's claim is 7 s old");
        assertEquals(0, ages.olderThanBound());
    }

    @Test
    void junkUnderAClaimsNameIsNotCounted() throws Exception {
        // Junk is left alone (never renamed, settled or taken over): counted, its age would grow for good.
        assumeTrue(putJunkClaim(new ClaimName("junk", io.leasehold.core.Generation.at(1), clock.now())),
                "this backend has no junk under a claim's name");
        seen(STUCK);
        ClaimName running = claim(spool, "running");
        clock.advance(TERMS.lease().multipliedBy(30));

        ClaimAges ages = seen(STUCK);
        assertEquals(TERMS.lease().multipliedBy(30).toMillis(), ages.oldestMs(), running + " alone counts");
        assertEquals(1, ages.olderThanBound(), "the junk runs nothing");
    }
}
