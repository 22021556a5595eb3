package io.leasehold.nats;

import static io.leasehold.nats.NatsTesting.connect;
import static io.leasehold.nats.NatsTesting.failure;
import static io.leasehold.nats.NatsTesting.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseStoreException.Kind;
import io.leasehold.testing.NatsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A bus whose user list does not grant the lease bucket: the store must say DENIED (retrying will not
 * help until the grant changes), never INDETERMINATE (which would read as "the bus is gone").
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class NatsKvPermissionTest {

    private static final String BUCKET = "leasehold";

    // admin: everything. outsider: an older user list that knows nothing of the lease bucket (only its
    // own subjects and the JetStream info call). reader: may read the bucket but not write to it.
    private static final String CONFIG = """
            accounts {
              APP {
                jetstream: enabled
                users: [
                  {user: admin, password: admin}
                  {user: outsider, password: outsider, permissions: {publish: {allow: ["app.>", "$JS.API.INFO"]}}}
                  {user: reader, password: reader, permissions: {publish: {deny: ["$KV.>"]}}}
                ]
              }
            }
            """;

    private static NatsServer server;

    @BeforeAll
    static void start() throws Exception {
        server = NatsServer.start(CONFIG);
        try (NatsBus admin = connect(DefaultBus.settings(server.url()).withUser("admin", "admin"))) {
            NatsKvLeaseStore store = new NatsKvLeaseStore(admin, BUCKET, "controller");
            assertTrue(store.ensureBucket(), "the admin makes the bucket");
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aUserWithoutTheBucketIsDeniedEveryCall() throws Exception {
        try (NatsBus bus = connect(DefaultBus.settings(server.url()).withUser("outsider", "outsider"))) {
            NatsKvLeaseStore store = new NatsKvLeaseStore(bus, BUCKET, "controller");
            for (var call : new Object[][] {
                    {"read", (NatsTesting.StoreCall) store::read},
                    {"create", (NatsTesting.StoreCall) () -> store.create(record("a", 0))},
                    {"lastRevision", (NatsTesting.StoreCall) store::lastRevision},
                    {"ensureBucket", (NatsTesting.StoreCall) store::ensureBucket}}) {
                LeaseStoreException e = failure((String) call[0], (NatsTesting.StoreCall) call[1]);
                System.out.println("outsider " + call[0] + ": " + e.kind() + " " + e.getMessage()
                        + " / cause " + e.getCause());
                assertEquals(Kind.DENIED, e.kind(), call[0] + ": " + e.getMessage());
                assertTrue(e.getMessage().contains("Permissions Violation"), e.getMessage());
            }
        }
    }

    @Test
    void aUserWhoMayOnlyReadIsDeniedWrites() throws Exception {
        try (NatsBus bus = connect(DefaultBus.settings(server.url()).withUser("reader", "reader"))) {
            NatsKvLeaseStore store = new NatsKvLeaseStore(bus, BUCKET, "reader-key");
            assertTrue(store.read().isEmpty(), "reading is granted");
            long last = store.lastRevision();
            LeaseStoreException e = failure("create", () -> store.create(record("r", 0)));
            System.out.println("reader create: " + e.kind() + " " + e.getMessage() + " / cause " + e.getCause());
            assertEquals(Kind.DENIED, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("$KV." + BUCKET + ".reader-key"), e.getMessage());
            assertEquals(last, store.lastRevision(), "nothing was written");
        }
    }
}
