package io.leasehold.nats;

import static io.leasehold.nats.NatsTesting.connect;
import static io.leasehold.nats.NatsTesting.record;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The bus's data is wiped under a running instance: a store made before the wipe must read the lease
 * again (nobody holds it) and be able to take it, not stay stuck on a bucket that no longer exists.
 */
class NatsKvWipeTest {

    @Test
    void aStoreMadeBeforeAWipeReadsAndWritesTheNewBucket() throws Exception {
        try (NatsServer server = NatsServer.start(); NatsBus bus = connect(server)) {
            NatsKvLeaseStore store = new NatsKvLeaseStore(bus, NatsTesting.uniqueBucket(), "controller");
            store.ensureBucket();
            long before = store.create(record("a", 0));
            assertTrue(store.read().isPresent());

            server.wipeStore();
            server.restart();
            // The client reconnects on its own; until then reads fail as indeterminate.
            Await.until("the lease reads as free after the wipe", Duration.ofSeconds(20), () -> {
                try {
                    return store.read().isEmpty();
                } catch (io.leasehold.lease.LeaseStoreException e) {
                    return false;
                }
            });
            long after = store.create(record("b", 0));
            assertTrue(after >= 1, "taken in the new bucket at revision " + after + " (was " + before + ")");
            assertTrue(store.read().orElseThrow().record().holder().instance().equals("b"));
        }
    }
}
