package io.leasehold.nats;

import io.leasehold.testing.SharedNatsServer;

import static io.leasehold.nats.NatsTesting.connect;
import static io.leasehold.nats.NatsTesting.reconnected;
import static io.leasehold.nats.NatsTesting.uniqueBucket;

import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The store contract against the KV store on one real nats-server, a fresh bucket per test. */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class NatsKvLeaseStoreContractTest extends LeaseStoreContract {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(10);
    private final List<NatsBus> buses = new ArrayList<>();
    private String bucket;
    private NatsKvLeaseStore store;

    @BeforeEach
    void openStore() throws Exception {
        bucket = uniqueBucket();
        // Made by a client that waits longer: the clients under test give up after half a second, and a
        // stream's creation on a loaded 2-core machine can take more (the setup is not what is tested).
        try (NatsBus setup = NatsConnector.connect(DefaultBus.settings(NATS.server().url())
                .withRequestTimeout(SETUP_TIMEOUT))) {
            new NatsKvLeaseStore(setup, bucket, "controller").ensureBucket();
        }
        store = client();
        store.ensureBucket();
    }

    @AfterEach
    void closeBuses() throws Exception {
        for (NatsBus bus : buses) {
            bus.close();
        }
    }

    @Override
    protected LeaseStore store() {
        return store;
    }

    @Override
    protected LeaseStore anotherClient() {
        return client();
    }

    /** Stops the server, deletes its JetStream store and starts it again on the same port. */
    @Override
    protected void wipe() {
        NATS.server().wipeStore();
        NATS.server().restart();
        reconnected(NATS.server(), buses);
    }

    @Override
    protected void purge() throws Exception {
        buses.get(0).connection().jetStreamManagement().purgeStream("KV_" + bucket);
    }

    private NatsKvLeaseStore client() {
        NatsBus bus = connect(NATS.server());
        buses.add(bus);
        return new NatsKvLeaseStore(bus, bucket, "controller");
    }
}
