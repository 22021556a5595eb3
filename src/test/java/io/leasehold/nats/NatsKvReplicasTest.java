package io.leasehold.nats;

import static io.leasehold.nats.NatsTesting.connect;
import static io.leasehold.nats.NatsTesting.failure;
import static io.leasehold.nats.NatsTesting.record;
import static io.leasehold.nats.NatsTesting.uniqueBucket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.LeaseStore.Versioned;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseStoreException.Kind;
import io.leasehold.testing.NatsServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code leasehold.lease.replicas} on one real nats-server (2.9.10, not clustered): the bucket is
 * made with the count asked; a count a lone server cannot keep is a prompt error naming the key, not
 * a hang; an existing bucket is used as it is, whatever count it was made with.
 */
class NatsKvReplicasTest {

    /** Far above one JetStream answer, far below anything that would look like a hang. */
    private static final Duration PROMPT = Duration.ofSeconds(5);

    private static NatsServer server;

    @BeforeAll
    static void startServer() {
        server = NatsServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void theBucketIsMadeWithTheReplicasAsked() throws Exception {
        try (NatsBus bus = connect(server)) {
            NatsKvLeaseStore byDefault = new NatsKvLeaseStore(bus, uniqueBucket(), "controller");
            assertTrue(byDefault.ensureBucket());
            assertEquals(1, byDefault.replicasFound());
            NatsKvLeaseStore one = new NatsKvLeaseStore(bus, uniqueBucket(), "controller", 1);
            assertTrue(one.ensureBucket());
            assertEquals(1, one.replicasFound());
        }
    }

    @Test
    void threeReplicasOnALoneServerIsAPromptErrorNamingTheKey() throws Exception {
        try (NatsBus bus = connect(server)) {
            NatsKvLeaseStore three = new NatsKvLeaseStore(bus, uniqueBucket(), "controller", 3);
            long start = System.nanoTime();
            LeaseStoreException made = failure("ensureBucket", three::ensureBucket);
            // read() makes a missing bucket too: the lease's first step meets the same answer.
            LeaseStoreException read = failure("read", three::read);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            for (LeaseStoreException e : new LeaseStoreException[] {made, read}) {
                assertEquals(Kind.INDETERMINATE, e.kind(), "not a refusal of this user: no unleased mode");
                assertTrue(e.getMessage().contains("the bus cannot make the lease bucket " + three.bucket()
                        + " with 3 replica(s) (leasehold.lease.replicas)")
                        && e.getMessage().contains("replicas > 1 not supported in non-clustered mode"), e.getMessage());
            }
            assertTrue(took.compareTo(PROMPT) < 0, "both answered within " + PROMPT + ", took " + took);
            // Nothing was left half-made: the same bucket with one replica is made afresh.
            assertTrue(new NatsKvLeaseStore(bus, three.bucket(), "controller", 1).ensureBucket());
        }
    }

    @Test
    void anExistingBucketIsUsedAsItIsWhateverItsReplicas() throws Exception {
        try (NatsBus bus = connect(server)) {
            String bucket = uniqueBucket();
            assertTrue(new NatsKvLeaseStore(bus, bucket, "controller", 1).ensureBucket());
            NatsKvLeaseStore askingThree = new NatsKvLeaseStore(bus, bucket, "controller", 3);
            assertFalse(askingThree.ensureBucket(), "found, not made again, no error");
            long revision = askingThree.create(record("a", 0));
            assertEquals(new Versioned(revision, record("a", 0)), askingThree.read().orElseThrow());
            assertEquals(1, askingThree.replicasFound(), "left as it was made");
        }
    }
}
