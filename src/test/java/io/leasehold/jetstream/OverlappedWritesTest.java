package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.api.PublishAck;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes sent without waiting for their answers, on a real nats-server: each is still one compare-and-set,
 * and an answer that is a refusal, lost or never came is decided by the entry itself, never by the answer.
 * The answers lost after the write landed are staged by a sender that publishes for real and then reports
 * a failure, which the server alone cannot do.
 */
class OverlappedWritesTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private InstanceRig rig;
    private Ledger ledger;

    @BeforeEach
    void open() throws Exception {
        rig = InstanceRig.open(NATS.server().url(), "overlapped-" + ProcessHandle.current().pid() + "-" + ++buckets,
                1024, new DrivenClock(), "a");
        ledger = rig.ledger;
    }

    @AfterEach
    void close() throws InterruptedException {
        rig.close();
    }

    private static LedgerEntry entry(int i) {
        return LedgerEntry.stagedInline("batch-t", Instant.parse("2026-12-01T00:00:00Z"), ("payload " + i).getBytes());
    }

    private static OverlappedWrites.Write create(String id, LedgerEntry entry) {
        return new OverlappedWrites.Write(id, null, entry);
    }

    @Test
    void manyCreatesLandEachAtTheRevisionItsAnswerGaveInTheOrderSent() throws IOException {
        OverlappedWrites writes = new OverlappedWrites(ledger);
        for (int i = 0; i < 500; i++) {
            writes.send(create("c" + i, entry(i)));
        }
        assertEquals(500, writes.inFlight());
        List<OverlappedWrites.Outcome> done = writes.await();
        assertEquals(0, writes.inFlight());
        assertEquals(500, done.size());
        for (int i = 0; i < 500; i++) {
            OverlappedWrites.Outcome o = done.get(i);
            assertEquals("c" + i, o.write().id());
            Ledger.Seen read = ledger.read("c" + i).orElseThrow();
            assertEquals(Optional.of(read), o.landed(), "c" + i);
            assertEquals(entry(i).inline(), read.entry().inline());
        }
    }

    @Test
    void aCreateOfAKnownIdLosesAndTheEntryIsUntouched() throws IOException {
        Ledger.Seen first = ledger.created("k", entry(1)).orElseThrow();
        OverlappedWrites writes = new OverlappedWrites(ledger);
        writes.send(create("k", entry(2)));
        writes.send(create("k2", entry(3)));
        List<OverlappedWrites.Outcome> done = writes.await();
        assertEquals(Optional.empty(), done.get(0).landed());
        assertTrue(done.get(1).landed().isPresent(), "the write beside it is not disturbed");
        assertEquals(Optional.of(first), ledger.read("k"));
    }

    @Test
    void aCreateOverATombstoneLandsOnceAndAMoveFromAStaleRevisionLoses() throws IOException {
        Ledger.Seen gone = ledger.created("t", entry(1)).orElseThrow();
        assertTrue(ledger.remove("t", gone));
        Ledger.Seen moved = ledger.created("m", entry(2)).orElseThrow();
        Ledger.Seen now = ledger.move("m", moved, entry(3)).orElseThrow();
        OverlappedWrites writes = new OverlappedWrites(ledger);
        LedgerEntry again = entry(4);
        writes.send(create("t", again));
        writes.send(new OverlappedWrites.Write("m", moved, entry(5))); // the revision before the last move
        List<OverlappedWrites.Outcome> done = writes.await();
        assertEquals(ledger.read("t"), done.get(0).landed(), "a removed id may be created again");
        assertEquals(again.token(), ledger.read("t").orElseThrow().entry().token());
        assertEquals(Optional.empty(), done.get(1).landed());
        assertEquals(Optional.of(now), ledger.read("m"));
    }

    @Test
    void aWriteWhoseAnswerWasLostAfterItLandedIsKnownAsItsOwnAndNotWrittenTwice() throws IOException {
        List<String> published = new ArrayList<>();
        OverlappedWrites.Sender landsThenFails = (subject, data, expect) -> {
            published.add(subject);
            return ledger.jetStream().publishAsync(subject, data, expect)
                    .thenCompose(ack -> CompletableFuture.<PublishAck>failedFuture(new IOException("answer lost")));
        };
        Ledger.Seen base = ledger.created("moved", entry(1)).orElseThrow();
        OverlappedWrites writes = new OverlappedWrites(ledger, landsThenFails);
        writes.send(create("lost", entry(2)));
        writes.send(new OverlappedWrites.Write("moved", base, entry(3)));
        List<OverlappedWrites.Outcome> done = writes.await();
        assertEquals(2, published.size());
        Ledger.Seen lost = ledger.read("lost").orElseThrow();
        assertEquals(Optional.of(lost), done.get(0).landed(), "its own token was found");
        Ledger.Seen moved = ledger.read("moved").orElseThrow();
        assertEquals(Optional.of(moved), done.get(1).landed());
        assertEquals(base.revision() + 2, moved.revision(), "each write landed once: the two sent are the only "
                + "writes since, none was made again after its answer was lost");
    }

    @Test
    void aWriteNeverSentIsMadeTheOneAtATimeWayAndAWriteThatCannotBeMadeFailsTheAwaitAfterTheOthers()
            throws Exception {
        OverlappedWrites.Sender neverSends = (subject, data, expect) -> CompletableFuture.failedFuture(
                new IllegalStateException("not connected"));
        OverlappedWrites writes = new OverlappedWrites(ledger, neverSends);
        writes.send(create("made", entry(1)));
        List<OverlappedWrites.Outcome> done = writes.await();
        assertEquals(ledger.read("made"), done.get(0).landed());

        OverlappedWrites.Sender throwing = (subject, data, expect) -> {
            throw new IllegalStateException("unable to queue any more messages");
        };
        OverlappedWrites cut = new OverlappedWrites(ledger, throwing);
        cut.send(create("before", entry(2)));
        rig.connection.close(); // the one-at-a-time write cannot be made either
        assertThrows(IOException.class, cut::await);
        assertEquals(0, cut.inFlight(), "nothing is left to await twice");
        assertFalse(rig.connection.getStatus() == Connection.Status.CONNECTED);
    }
}
