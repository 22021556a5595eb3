package io.leasehold.nats;

import static io.leasehold.nats.NatsTesting.connect;
import static io.leasehold.nats.NatsTesting.failure;
import static io.leasehold.nats.NatsTesting.record;
import static io.leasehold.nats.NatsTesting.uniqueBucket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.LeaseRecord;
import io.leasehold.lease.LeaseStore.Versioned;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseStoreException.Kind;
import io.leasehold.testing.NatsServer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The KV lease store against one real nats-server shared by these tests, a fresh bucket each. */
class NatsKvLeaseStoreTest {

    private static NatsServer server;
    private NatsBus bus;
    private NatsKvLeaseStore store;

    @BeforeAll
    static void startServer() {
        server = NatsServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void openStore() throws Exception {
        bus = connect(server);
        store = new NatsKvLeaseStore(bus, uniqueBucket(), "controller");
        assertTrue(store.ensureBucket(), "a new bucket is made");
        assertFalse(store.ensureBucket(), "an existing bucket is kept");
    }

    @AfterEach
    void closeBus() throws Exception {
        bus.close();
    }

    @Test
    void createAnswersTheRevisionAndReadShowsTheRecord() throws Exception {
        assertTrue(store.read().isEmpty(), "nothing written yet");
        assertEquals(0, store.lastRevision());
        LeaseRecord written = record("a", 0);
        long revision = store.create(written);
        assertEquals(1, revision);
        assertEquals(new Versioned(1, written), store.read().orElseThrow());
        assertEquals(1, store.lastRevision());
    }

    @Test
    void theValueIsReadableJson() throws Exception {
        store.create(record("a", 7));
        String raw = new String(bus.connection().keyValue(store.bucket()).get("controller").getValue(),
                StandardCharsets.UTF_8);
        assertEquals("{\"holder\":{\"instance\":\"a\",\"host\":\"host-a\",\"build\":\"build-1\"},\"epoch\":7,"
                + "\"takenAt\":\"2025-01-02T03:04:05.678Z\",\"renewedAt\":\"2025-01-02T03:04:05.678Z\"}", raw);
    }

    @Test
    void createOnALiveKeyIsAConflict() throws Exception {
        store.create(record("a", 0));
        LeaseStoreException e = failure("second create", () -> store.create(record("b", 0)));
        assertEquals(Kind.CONFLICT, e.kind(), e.getMessage());
        assertEquals("a", store.read().orElseThrow().record().holder().instance(), "the first stays");
    }

    @Test
    void updateAtTheLatestRevisionWinsAndAtAStaleOneConflicts() throws Exception {
        long taken = store.create(record("a", 0));
        long renewed = store.update(record("a", taken).renewedAt(java.time.Instant.EPOCH), taken);
        assertTrue(renewed > taken, renewed + " > " + taken);
        assertEquals(renewed, store.read().orElseThrow().revision());

        LeaseStoreException e = failure("stale update", () -> store.update(record("b", 0), taken));
        assertEquals(Kind.CONFLICT, e.kind(), e.getMessage());
        assertEquals("a", store.read().orElseThrow().record().holder().instance());
        assertEquals(renewed, store.lastRevision(), "the refused write left no trace");
    }

    @Test
    void deleteAtTheLatestRevisionEmptiesTheKeyAndCreateWorksAgain() throws Exception {
        long taken = store.create(record("a", 0));
        long renewed = store.update(record("a", taken), taken);

        LeaseStoreException stale = failure("stale delete", () -> {
            store.delete(taken);
            return "deleted";
        });
        assertEquals(Kind.CONFLICT, stale.kind(), stale.getMessage());
        assertTrue(store.read().isPresent(), "a stale delete leaves the lease in place");

        store.delete(renewed);
        assertTrue(store.read().isEmpty(), "a deleted key reads as empty");
        long tombstone = store.lastRevision();
        assertTrue(tombstone > renewed, "the delete is a revision of its own");

        long again = store.create(record("b", 0));
        assertTrue(again > tombstone, again + " > " + tombstone);
        assertEquals("b", store.read().orElseThrow().record().holder().instance());
    }

    @Test
    void updateOfADeletedKeyConflicts() throws Exception {
        long taken = store.create(record("a", 0));
        store.delete(taken);
        LeaseStoreException e = failure("update after delete", () -> store.update(record("a", taken), taken));
        assertEquals(Kind.CONFLICT, e.kind(), e.getMessage());
    }

    @Test
    void lastRevisionCountsEveryWriteToTheBucket() throws Exception {
        long a = store.create(record("a", 0));
        NatsKvLeaseStore other = new NatsKvLeaseStore(bus, store.bucket(), "other-key");
        long b = other.create(record("b", 0));
        assertEquals(b, store.lastRevision());
        assertTrue(b > a);
    }

    @Test
    void revisionsMovedPastAFloorStayPastIt() throws Exception {
        assertEquals(1001, store.moveRevisionsPast(1000));
        assertEquals(1000, store.lastRevision());
        assertEquals(1001, store.create(record("a", 0)));
        assertEquals(1001, store.read().orElseThrow().revision());
    }

    @Test
    void movingPastALowerFloorChangesNothing() throws Exception {
        long taken = store.create(record("a", 0));
        long live = store.update(record("a", taken), taken);
        assertEquals(live + 1, store.moveRevisionsPast(taken), "already past: the next revision is simply next");
        assertEquals(live, store.read().orElseThrow().revision(), "the live lease was not purged");
    }

    @Test
    void movingPastAFloorAboveTheLiveEntryRemovesIt() throws Exception {
        // The purge takes every entry below the floor with it: the caller moves revisions before taking.
        store.create(record("a", 0));
        assertEquals(51, store.moveRevisionsPast(50));
        assertTrue(store.read().isEmpty());
        assertEquals(51, store.create(record("b", 0)));
    }

    @Test
    void anUnreadableValueStillCountsAsALiveEntry() throws Exception {
        long rev = bus.connection().keyValue(store.bucket()).put("controller", "not json");
        Versioned v = store.read().orElseThrow();
        assertEquals(rev, v.revision());
        assertEquals(0, v.record().epoch());
        assertTrue(v.record().holder().instance().startsWith("unreadable value at revision " + rev),
                v.record().holder().instance());
        assertEquals(Kind.CONFLICT, failure("create over it", () -> store.create(record("a", 0))).kind());
    }
}
