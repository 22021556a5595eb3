package io.leasehold.nats;

import io.leasehold.testing.SharedNatsServer;

import static io.leasehold.nats.NatsTesting.connect;
import static io.leasehold.nats.NatsTesting.failure;
import static io.leasehold.nats.NatsTesting.record;
import static io.leasehold.nats.NatsTesting.uniqueBucket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.LeaseStore.Versioned;
import io.leasehold.lease.LeaseStoreException.Kind;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What only the KV lease store has (the bucket, the JSON value, other keys, foreign bytes), against one
 * real nats-server shared by these tests, a fresh bucket each. The rules of the port itself are in
 * {@link io.leasehold.lease.LeaseStoreContract}, run by {@link NatsKvLeaseStoreContractTest}.
 */
class NatsKvLeaseStoreTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private NatsBus bus;
    private NatsKvLeaseStore store;

    @BeforeEach
    void openStore() throws Exception {
        bus = connect(NATS.server());
        store = new NatsKvLeaseStore(bus, uniqueBucket(), "controller");
        assertTrue(store.ensureBucket(), "a new bucket is made");
        assertFalse(store.ensureBucket(), "an existing bucket is kept");
    }

    @AfterEach
    void closeBus() throws Exception {
        bus.close();
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
    void lastRevisionCountsEveryWriteToTheBucket() throws Exception {
        long a = store.create(record("a", 0));
        NatsKvLeaseStore other = new NatsKvLeaseStore(bus, store.bucket(), "other-key");
        long b = other.create(record("b", 0));
        assertEquals(b, store.lastRevision());
        assertTrue(b > a);
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
