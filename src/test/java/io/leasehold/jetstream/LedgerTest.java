package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ledger's compare-and-set on a real nats-server, and how it decides a write the server refused:
 * "wrong last sequence" is also the answer to a write that landed (a retried publish, a lost answer), so
 * only the entry itself, with the writer's own token, says who won.
 */
class LedgerTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private Connection connection;
    private Ledger ledger;

    @BeforeEach
    void open() throws Exception {
        connection = Nats.connect(NATS.server().url());
        ledger = new Ledger(connection, "ledger-" + ProcessHandle.current().pid() + "-" + ++buckets, 1);
    }

    @AfterEach
    void close() throws InterruptedException {
        connection.close();
    }

    private static LedgerEntry claimOf(LedgerEntry pending, String by) {
        return pending.claimed(new ClaimName("x", Generation.first(), Instant.parse("2026-12-01T00:00:00Z")), by);
    }

    @Test
    void aMoveAtTheRevisionReadWinsAndOneAtAStaleRevisionLoses() throws Exception {
        assertTrue(ledger.create("x", LedgerEntry.enqueued(Instant.EPOCH, "x/1")));
        Ledger.Seen seen = ledger.read("x").orElseThrow();
        LedgerEntry mine = claimOf(seen.entry(), "a");
        LedgerEntry theirs = claimOf(seen.entry(), "b");
        assertTrue(ledger.replace("x", seen, mine));
        assertFalse(ledger.replace("x", seen, theirs), "the same revision, read by both: the second loses");
        assertEquals(Optional.of(mine), ledger.read("x").map(Ledger.Seen::entry));
    }

    @Test
    void aRefusedWriteThatHadLandedCountsAsWon() throws Exception {
        assertTrue(ledger.create("x", LedgerEntry.enqueued(Instant.EPOCH, "x/1")));
        Ledger.Seen seen = ledger.read("x").orElseThrow();
        LedgerEntry mine = claimOf(seen.entry(), "a");
        assertTrue(ledger.replace("x", seen, mine)); // landed; the writer is told nothing and tries again
        assertTrue(ledger.replace("x", seen, mine), "refused as wrong last sequence, yet the entry is its own");
        LedgerEntry again = claimOf(seen.entry(), "a"); // the same move, another write: another token
        assertFalse(ledger.replace("x", seen, again), "an equal-looking entry with another token is not this write");
    }

    @Test
    void aCreateRefusedBecauseTheKeyHoldsAnEntryIsLostUnlessThatEntryIsItsOwn() throws Exception {
        LedgerEntry first = LedgerEntry.enqueued(Instant.EPOCH, "x/1");
        assertTrue(ledger.create("x", first));
        assertTrue(ledger.create("x", first), "its own entry: a create retried after a lost answer");
        assertFalse(ledger.create("x", LedgerEntry.enqueued(Instant.EPOCH, "x/1")), "another enqueue of the same id");
    }

    @Test
    void aDeletedKeyIsCreatedAgainByOneOfTwoCreatorsOnly() throws Exception {
        assertTrue(ledger.create("x", LedgerEntry.enqueued(Instant.EPOCH, "x/1")));
        connection.keyValue(ledger.bucket()).delete(LedgerKeys.key("x")); // a tombstone, as a purge leaves
        assertEquals(Optional.empty(), ledger.read("x"));
        LedgerEntry a = LedgerEntry.enqueued(Instant.EPOCH, "x/1");
        LedgerEntry b = LedgerEntry.enqueued(Instant.EPOCH, "x/1");
        boolean aWon = ledger.create("x", a);
        boolean bWon = ledger.create("x", b);
        assertTrue(aWon ^ bWon, "exactly one creator replaces the tombstone: " + aWon + " " + bWon);
        assertEquals(Optional.of(aWon ? a : b), ledger.read("x").map(Ledger.Seen::entry));
    }

    /**
     * Two instances, each on a connection of its own, create the same purged key at the same moment, for
     * many rounds: every round exactly one wins, and the entry is the winner's.
     */
    @Test
    void twoCreatorsReleasedTogetherOnATombstoneHaveOneWinnerEveryRound() throws Exception {
        try (Connection other = Nats.connect(NATS.server().url())) {
            Ledger theirs = new Ledger(other, ledger.bucket(), 1);
            ExecutorService two = Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < 25; round++) {
                    String id = "tomb-" + round;
                    assertTrue(ledger.create(id, LedgerEntry.enqueued(Instant.EPOCH, id + "/0")));
                    connection.keyValue(ledger.bucket()).delete(LedgerKeys.key(id));
                    LedgerEntry mine = LedgerEntry.enqueued(Instant.EPOCH, id + "/a");
                    LedgerEntry their = LedgerEntry.enqueued(Instant.EPOCH, id + "/b");
                    CyclicBarrier start = new CyclicBarrier(2);
                    Future<Boolean> a = two.submit(() -> {
                        start.await();
                        return ledger.create(id, mine);
                    });
                    Future<Boolean> b = two.submit(() -> {
                        start.await();
                        return theirs.create(id, their);
                    });
                    boolean aWon = a.get(20, TimeUnit.SECONDS);
                    boolean bWon = b.get(20, TimeUnit.SECONDS);
                    assertTrue(aWon ^ bWon, "round " + round + ": exactly one winner, got " + aWon + " " + bWon);
                    assertEquals(Optional.of(aWon ? mine : their), ledger.read(id).map(Ledger.Seen::entry));
                }
            } finally {
                two.shutdownNow();
            }
        }
    }
}
