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
}
