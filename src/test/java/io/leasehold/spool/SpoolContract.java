package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.OwnThreads;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The rules of the {@link Spool} port, one suite for every backend (a spool directory, a JetStream
 * ledger): two instances on one spool, real files or a real server, and the clock driven. A backend's
 * test supplies the spools and a way to enqueue and to see an item's state.
 */
public abstract class SpoolContract {

    protected final DrivenClock clock = new DrivenClock();
    /** This instance's spool and another instance's on the same items: set by the backend's test before each. */
    protected Spool mine;
    protected Spool theirs;

    private Spool spool() {
        return mine;
    }

    private Spool other() {
        return theirs;
    }

    protected abstract void enqueue(String id, byte[] payload) throws IOException;

    /** pending, claimed, done or failed; empty when the spool holds no such item. */
    protected abstract Optional<String> state(String id) throws IOException;

    private static int serial;

    protected static synchronized String uniqueId(String prefix) {
        return prefix + "-" + System.nanoTime() + "-" + ++serial;
    }

    private ClaimName claimed(String id) throws IOException {
        enqueue(id, id.getBytes());
        return spool().claim(id, clock.now()).orElseThrow(() -> new AssertionError("could not claim " + id));
    }

    @Test
    void aPendingItemIsClaimedOnceAtItsFirstAttempt() throws IOException {
        String id = uniqueId("once");
        enqueue(id, new byte[] {1});
        assertTrue(spool().pendingBatch(1000).contains(id));
        ClaimName claim = spool().claim(id, clock.now()).orElseThrow();
        assertEquals(id, claim.id());
        assertEquals(1, claim.generation().attempt());
        assertEquals(clock.now(), claim.reading());
        assertEquals(Optional.of("claimed"), state(id));
        assertEquals(Optional.empty(), spool().claim(id, clock.now()), "claimed already, by this instance");
        assertEquals(Optional.empty(), other().claim(id, clock.now()), "claimed already, for the other one too");
        assertFalse(spool().pendingBatch(1000).contains(id));
        assertTrue(other().claims().contains(claim), "every instance sees the claim");
    }

    @Test
    void twoInstancesRacingForEachItemInLockstepHaveOneWinnerEach() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add(uniqueId("race"));
            enqueue(ids.get(i), new byte[] {(byte) i});
        }
        // Both look at each item at the same moment: a backend that checked and then wrote without
        // a compare-and-set would let both win some of them.
        CyclicBarrier together = new CyclicBarrier(2);
        CompletableFuture<List<String>> mine = CompletableFuture.supplyAsync(() -> claimAll(spool(), ids, together),
                OwnThreads.EACH);
        CompletableFuture<List<String>> theirs = CompletableFuture.supplyAsync(() -> claimAll(other(), ids, together),
                OwnThreads.EACH);
        List<String> all = new ArrayList<>(mine.get(60, TimeUnit.SECONDS));
        all.addAll(theirs.get(60, TimeUnit.SECONDS));
        assertEquals(ids.stream().sorted().toList(), all.stream().sorted().toList(), "each item once, none twice");
    }

    private List<String> claimAll(Spool on, List<String> ids, CyclicBarrier together) {
        try {
            List<String> won = new ArrayList<>();
            for (String id : ids) {
                together.await(30, TimeUnit.SECONDS);
                if (on.claim(id, clock.now()).isPresent()) {
                    won.add(id);
                }
            }
            return won;
        } catch (IOException | InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRenewalMovesTheReadingAndLeavesTheOldNameDead() throws IOException {
        ClaimName claim = claimed(uniqueId("renew"));
        clock.advance(Duration.ofSeconds(40));
        ClaimName renewed = claim.renewedAt(clock.now());
        assertTrue(spool().restamp(claim, renewed));
        assertEquals(Optional.of(renewed), spool().find(claim.id(), claim.generation()));
        assertFalse(spool().restamp(claim, claim.renewedAt(clock.now().plusSeconds(1))), "the old reading is gone");
        assertFalse(spool().settle(claim, ItemState.DONE), "so is settling under it");
        assertEquals(Optional.of("claimed"), state(claim.id()));
    }

    @Test
    void aTakeoverEndsTheOldHoldersClaimForEveryMove() throws IOException {
        ClaimName claim = claimed(uniqueId("taken"));
        clock.advance(Duration.ofMinutes(3));
        ClaimName taken = other().takeOver(claim, clock.now()).orElseThrow();
        assertEquals(2, taken.generation().attempt());
        assertEquals(Optional.empty(), spool().find(claim.id(), claim.generation()));
        assertFalse(spool().restamp(claim, claim.renewedAt(clock.now())), "the old holder cannot renew");
        assertFalse(spool().settle(claim, ItemState.DONE), "nor settle");
        assertFalse(spool().handBack(claim), "nor hand back");
        assertEquals(Optional.empty(), spool().payload(claim), "nor read the payload");
        assertEquals(Optional.empty(), other().takeOver(claim, clock.now()), "a second taker of the same claim loses");
        assertTrue(other().settle(taken, ItemState.DONE));
        assertEquals(Optional.of("done"), state(claim.id()));
    }

    @Test
    void theTakerOfAScheduledClaimMakesItsFirstAttemptAtTheSameNumber() throws IOException {
        ClaimName claim = claimed(uniqueId("sched"));
        spool().writeRecord(claim.id(), claim.generation(), AttemptRecord.note(0, "").as(AttemptRecord.Kind.SCHEDULED));
        clock.advance(Duration.ofMinutes(3));
        ClaimName taken = other().takeOver(claim, clock.now()).orElseThrow();
        assertEquals(claim.generation().attempt(), taken.generation().attempt(), "no attempt was made before");
        assertNotEquals(claim.generation(), taken.generation(), "a generation of the taker's own");
        assertEquals(Optional.of(taken), other().find(claim.id(), taken.generation()));
    }

    @Test
    void aRestampKeepsTheGenerationOrNothingMoves() throws IOException {
        ClaimName claim = claimed(uniqueId("kinds"));
        ClaimName nextGeneration = new ClaimName(claim.id(), claim.generation().next(), clock.now());
        assertThrows(IllegalArgumentException.class, () -> spool().restamp(claim, nextGeneration),
                "a renewal or a park never changes hands");
        assertEquals(Optional.of(claim), spool().find(claim.id(), claim.generation()), "the claim is as it was");
        assertEquals(List.of(claim), spool().claims().stream().filter(c -> c.id().equals(claim.id())).toList());
    }

    @Test
    void anItemIsSettledOnceAndThenNothingMovesIt() throws IOException {
        ClaimName claim = claimed(uniqueId("settle"));
        assertTrue(spool().settle(claim, ItemState.FAILED));
        assertEquals(Optional.of("failed"), state(claim.id()));
        assertFalse(spool().settle(claim, ItemState.DONE), "settled once");
        assertFalse(other().settle(claim, ItemState.DONE));
        assertFalse(spool().handBack(claim));
        assertEquals(Optional.empty(), spool().claim(claim.id(), clock.now()), "a settled item is not claimable");
        assertFalse(spool().claims().contains(claim));
    }

    @Test
    void anItemHandedBackIsClaimedAgainAtTheSameAttempt() throws IOException {
        ClaimName claim = claimed(uniqueId("back"));
        ClaimName second = spool().takeOver(claim, clock.now()).orElseThrow(); // a takeover: attempt 2
        assertTrue(spool().handBack(second));
        assertEquals(Optional.of("pending"), state(claim.id()));
        ClaimName again = other().claim(claim.id(), clock.now()).orElseThrow();
        assertEquals(2, again.generation().attempt(), "the count goes on, so max-attempts holds");
        assertFalse(again.generation().equals(second.generation()), "a new claim, a new nonce");
    }

    @Test
    void thePayloadComesBackByteForByteEvenLargerThanOneMessage() throws IOException {
        String id = uniqueId("payload");
        byte[] payload = new byte[1_500_000]; // more than a NATS message's default 1 MiB
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31 + (i >> 8));
        }
        enqueue(id, payload);
        ClaimName claim = spool().claim(id, clock.now()).orElseThrow();
        assertArrayEquals(payload, spool().payload(claim).orElseThrow());
    }

    @Test
    void anEmptyPayloadComesBackEmpty() throws IOException {
        String id = uniqueId("empty");
        enqueue(id, new byte[0]);
        assertArrayEquals(new byte[0], spool().payload(spool().claim(id, clock.now()).orElseThrow()).orElseThrow());
    }

    @Test
    void recordsBelongToTheirGenerationAndEarlierOnesCanBeDropped() throws IOException {
        ClaimName claim = claimed(uniqueId("records"));
        AttemptRecord parked = AttemptRecord.note(0, "HTTP 503: try later").as(AttemptRecord.Kind.RETRY);
        spool().writeRecord(claim.id(), claim.generation(), parked);
        assertEquals(Optional.of(parked), other().record(claim.id(), claim.generation()));
        ClaimName taken = other().takeOver(claim, clock.now()).orElseThrow();
        assertEquals(Optional.of(parked), other().record(claim.id(), claim.generation()), "the taker reads it");
        other().dropEarlierRecords(taken);
        assertEquals(Optional.empty(), other().record(claim.id(), claim.generation()));
    }

    @Test
    void listingsShowEachItemUnderItsStateOnly() throws IOException {
        Set<String> pending = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            String id = uniqueId("listed");
            enqueue(id, new byte[0]);
            pending.add(id);
        }
        ClaimName claim = claimed(uniqueId("listed-claim"));
        Set<String> batch = new HashSet<>(spool().pendingBatch(10_000));
        assertTrue(batch.containsAll(pending), batch.toString());
        assertFalse(batch.contains(claim.id()));
        Set<String> claims = other().claims().stream().map(ClaimName::id).collect(Collectors.toSet());
        assertTrue(claims.contains(claim.id()));
        assertFalse(claims.stream().anyMatch(pending::contains));
        assertEquals(2, spool().pendingBatch(2).size(), "at most as many as asked for");
    }
}
