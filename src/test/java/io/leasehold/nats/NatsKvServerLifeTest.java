package io.leasehold.nats;

import static io.leasehold.nats.NatsTesting.RECONNECT_WITHIN;
import static io.leasehold.nats.NatsTesting.REQUEST_TIMEOUT;
import static io.leasehold.nats.NatsTesting.connect;
import static io.leasehold.nats.NatsTesting.failure;
import static io.leasehold.nats.NatsTesting.reconnected;
import static io.leasehold.nats.NatsTesting.record;
import static io.leasehold.nats.NatsTesting.uniqueBucket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseStoreException.Kind;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the store does when its server stops, restarts, crashes or loses its data: a server per test. */
class NatsKvServerLifeTest {

    private NatsServer server;
    private NatsBus bus;
    private NatsKvLeaseStore store;

    @BeforeEach
    void start() throws Exception {
        server = NatsServer.start();
        bus = connect(server);
        store = new NatsKvLeaseStore(bus, uniqueBucket(), "controller");
        store.ensureBucket();
    }

    @AfterEach
    void stop() throws Exception {
        bus.close();
        server.close();
    }

    @Test
    void movedRevisionsSurviveARestart() throws Exception {
        assertEquals(1001, store.moveRevisionsPast(1000));
        server.restart();
        reconnected(server, List.of(bus));
        assertEquals(1000, store.lastRevision(), "the moved sequence was kept on disk");
        assertEquals(1001, store.create(record("a", 0)));
    }

    @Test
    void movedRevisionsSurviveACrash() throws Exception {
        assertEquals(1001, store.moveRevisionsPast(1000));
        server.kill();
        server.restart();
        reconnected(server, List.of(bus));
        assertEquals(1000, store.lastRevision(), "the moved sequence was kept on disk through SIGKILL");
        assertEquals(1001, store.create(record("a", 0)));
    }

    /**
     * What docs/nats.md says of R1 with the default sync: killing nats-server loses no acknowledged
     * write (it is in the OS's hands already); only an OS crash or power loss can, which no test here
     * can stage.
     */
    @Test
    void acknowledgedLeaseWritesSurviveSigkillOfTheServer() throws Exception {
        long revision = store.create(record("a", 0));
        for (int i = 0; i < 50; i++) {
            revision = store.update(record("a", revision), revision);
        }
        server.kill(); // at once after the last acknowledgement
        server.restart();
        reconnected(server, List.of(bus));
        assertEquals(revision, store.lastRevision(), "every acknowledged write was kept through SIGKILL");
        assertEquals(revision, store.read().orElseThrow().revision());
    }

    @Test
    void aWipedStoreStartsRevisionsLowAgainUntilMovedPastTheFloor() throws Exception {
        long taken = store.create(record("a", 0));
        long renewed = store.update(record("a", taken), taken);
        store.update(record("a", taken), renewed);
        server.wipeStore();
        server.restart();
        reconnected(server, List.of(bus));

        LeaseStoreException stale = failure("update on the wiped bucket", () -> store.update(record("a", 1), 3));
        assertEquals(Kind.INDETERMINATE, stale.kind(), stale.getMessage());

        assertTrue(store.read().isEmpty(), "reading makes the bucket again, empty");
        assertEquals(0, store.lastRevision(), "revisions start over: this is what the epoch floor is for");
        LeaseStoreException late = failure("renewal at the old revision",
                () -> store.update(record("a", taken), 3));
        assertEquals(Kind.CONFLICT, late.kind(), late.getMessage());

        long floor = 3;
        assertEquals(floor + 1, store.moveRevisionsPast(floor));
        assertEquals(floor + 1, store.create(record("b", 0)));
    }

    @Test
    void aStoppedServerMakesEveryCallIndeterminateWithinTheRequestTimeout() throws Exception {
        long taken = store.create(record("a", 0));
        server.stop();
        Await.until("the client to see the server gone", RECONNECT_WITHIN,
                () -> bus.connection().getStatus() != Connection.Status.CONNECTED);
        for (var call : new Object[][] {
                {"read", (NatsTesting.StoreCall) store::read},
                {"create", (NatsTesting.StoreCall) () -> store.create(record("b", 0))},
                {"update", (NatsTesting.StoreCall) () -> store.update(record("a", taken), taken)},
                {"lastRevision", (NatsTesting.StoreCall) store::lastRevision},
                {"moveRevisionsPast", (NatsTesting.StoreCall) () -> store.moveRevisionsPast(5)}}) {
            long start = System.nanoTime();
            LeaseStoreException e = failure((String) call[0], (NatsTesting.StoreCall) call[1]);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.println("stopped server, " + call[0] + ": " + e.kind() + " after " + took.toMillis()
                    + " ms: " + e.getMessage());
            assertEquals(Kind.INDETERMINATE, e.kind(), call[0] + ": " + e.getMessage());
            assertTrue(took.compareTo(REQUEST_TIMEOUT.plusMillis(700)) < 0, call[0] + " took " + took);
        }
        server.restart();
        reconnected(server, List.of(bus));
        assertEquals(taken, store.read().orElseThrow().revision(),
                "the lease outlived the outage, and no write tried during it was replayed on reconnect");
        assertEquals(taken, store.lastRevision());
    }
}
