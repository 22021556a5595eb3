package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.Staleness;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.StagedBatch;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A JetStream batch its maker left half-way (a crash), finished by housekeeping, on a real nats-server. */
class JetStreamBatchRecoveryTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private final DrivenClock clock = new DrivenClock();
    private InstanceRig rig;
    private Ledger ledger;
    private JetStreamItemStore store;

    @BeforeEach
    void open() throws Exception {
        rig = InstanceRig.open(NATS.server().url(), "batches-" + ProcessHandle.current().pid() + "-" + ++buckets,
                1024, clock, "a");
        ledger = rig.ledger;
        store = rig.store;
    }

    @AfterEach
    void close() throws InterruptedException {
        rig.close();
    }

    /** Stages the ids and dies before its commit: nothing closes the batch. Answers the batch's name. */
    private String stagedAndAbandoned(List<String> ids) throws Exception {
        @SuppressWarnings("resource") // abandoned on purpose, as by a crash
        StagedBatch batch = store.stageBatch(1024);
        for (int line = 1; line <= ids.size(); line++) {
            try (OutputStream out = batch.payload(line, ids.get(line - 1))) {
                out.write(("payload of " + ids.get(line - 1)).getBytes());
            }
            batch.item(line, ids.get(line - 1));
        }
        // The creates went out without waiting for their answers: the crash comes once they are there.
        for (String id : ids) {
            Await.until(id + " staged", Duration.ofSeconds(10), () -> read(id).isPresent());
        }
        return ledger.read(ids.get(0)).orElseThrow().entry().holder();
    }

    private Optional<Ledger.Seen> read(String id) {
        try {
            return ledger.read(id);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aBatchWhoseMarkerWasWrittenIsRolledForwardWhole() throws Exception {
        List<String> ids = List.of("c1", "c2", "c3");
        String batch = stagedAndAbandoned(ids);
        BatchMarkers.write(ledger, batch, ids); // the commit point was passed, then the maker died
        assertEquals(Optional.empty(), store.lookup("c1"), "staged: nobody's to see yet");
        assertEquals(3, store.recover(new Staleness(clock.now().minusSeconds(3600), Duration.ZERO)), "finished however fresh");
        for (String id : ids) {
            assertEquals("pending", store.lookup(id).map(ItemView::state).orElse("none"), id);
        }
        assertEquals(Optional.empty(), ledger.readRaw(BatchMarkers.key(batch)), "the marker is gone once done");
        assertEquals(0, store.recover(new Staleness(clock.now(), Duration.ZERO)), "nothing left to finish");
    }

    @Test
    void aBatchWithoutAMarkerIsRolledBackOnceItIsStaleAndItsIdsAreFreeAgain() throws Exception {
        List<String> ids = List.of("u1", "u2");
        stagedAndAbandoned(ids);
        assertEquals(0, store.recover(new Staleness(clock.now().minusSeconds(60), Duration.ZERO)), "a batch staged since may be alive");
        assertTrue(ledger.read("u1").isPresent());
        clock.advance(Duration.ofHours(2));
        assertEquals(2, store.recover(new Staleness(clock.now().minusSeconds(3600), Duration.ZERO)));
        assertEquals(Optional.empty(), ledger.read("u1"));
        assertEquals(Optional.empty(), ledger.read("u2"));
        assertEquals("pending", store.enqueue("u1", new ByteArrayInputStream(new byte[0]), 1024).state());
    }

    @Test
    void aStagedEntryIsTakenBackOnlyOnceThisInstanceSawItUnchangedForTheQuietSpanWhateverItsWallClock()
            throws Exception {
        List<String> ids = List.of("q1", "q2");
        stagedAndAbandoned(ids);
        Duration quiet = Duration.ofSeconds(30);
        clock.set(clock.now().plus(Duration.ofHours(2))); // stepped ahead: every staged entry looks stale
        assertEquals(0, store.recover(new Staleness(clock.now().minusSeconds(3600), quiet)), "first seen now");
        clock.advance(quiet.minusSeconds(1));
        assertEquals(0, store.recover(new Staleness(clock.now().minusSeconds(3600), quiet)), "not quiet long enough");
        assertTrue(ledger.read("q1").isPresent());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(2, store.recover(new Staleness(clock.now().minusSeconds(3600), quiet)));
        assertEquals(Optional.empty(), ledger.read("q1"));
    }
}
