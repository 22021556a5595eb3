package io.leasehold.it;

import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Users the bus refuses the lease bucket to (docs/lease.md): with nobody holding the lease they serve
 * unleased (epoch 0), saying why in /lease and once in the log; one that can still read the bucket
 * exits 3 once it sees a permitted instance holding the lease.
 */
class LeasePermissionIT {

    // admin: everything. outsider: no JetStream API and no KV subjects at all. reader: may read the
    // bucket (JetStream API) but not write to it ($KV.> is the KV write subject).
    private static final String CONFIG = """
            accounts {
              APP {
                jetstream: enabled
                users: [
                  {user: admin, password: admin}
                  {user: outsider, password: outsider, permissions: {publish: {deny: ["$JS.API.>", "$KV.>"]}}}
                  {user: reader, password: reader, permissions: {publish: {deny: ["$KV.>"]}}}
                ]
              }
            }
            """;
    private static final String SAID_ONCE = "serving WITHOUT the controller lease (epoch 0)";

    private LeaseCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private ServiceProcess start(String name, String user) {
        // The server answers a denied request with an asynchronous -ERR only; the client learns of it
        // when the request times out. That must come within the lease's bound on a read (renew-every,
        // 1s here), or the refusal is never heard and the instance waits forever instead of serving
        // unleased: hence a request-timeout below renew-every (the default 2s is above it).
        return cluster.start(name, Map.of("leasehold.nats.user", user, "leasehold.nats.password", user,
                "leasehold.nats.request-timeout", "500ms"));
    }

    @Test
    void refusedUsersServeUnleasedAndOneThatSeesAHolderExits3() {
        cluster = new LeaseCluster("unleased", NatsServer.start(CONFIG), LeaseCluster.work(""));
        ServiceProcess outsider = start("outsider", "outsider");
        ServiceProcess reader = start("reader", "reader");
        outsider.awaitReady(START);
        reader.awaitReady(START);
        for (ServiceProcess p : new ServiceProcess[] {outsider, reader}) {
            Lease l = Await.value(p.name() + " serves unleased", Duration.ofSeconds(20), () -> lease(p),
                    seen -> seen != null && seen.mode().equals("unleased"));
            assertEquals(0, l.epoch(), l.raw());
            assertNull(l.holder(), l.raw());
            assertTrue(l.reason() != null && l.reason().contains("Permissions Violation"), "/lease says why: " + l.raw());
        }
        // Unleased, it still drains, under epoch 0.
        cluster.spool.enqueue("item-1", "payload");
        Await.until("item-1 done", Duration.ofSeconds(30), () -> cluster.spool.names("done").contains("item-1"));
        assertTrue(cluster.acts().stream().allMatch(act -> act.epoch() == 0), "epoch 0: " + cluster.acts());

        ServiceProcess admin = start("admin", "admin").awaitReady(START);
        Lease held = Await.value("admin holds the lease", Duration.ofSeconds(20), () -> lease(admin),
                l -> l != null && l.mode().equals("held"));
        assertTrue(held.epoch() > 0, held.raw());
        assertEquals(3, reader.awaitExit(Duration.ofSeconds(20)),
                "the reader sees the holder and exits:\n" + reader.logText());
        assertTrue(LeaseCluster.linesWith(reader, "the controller lease was lost") == 1, reader.logText());
        // Many tries later (one each renew-every), each has said it once. (The outsider, which cannot
        // even read the bucket, cannot see the admin's lease: it serves on unleased.)
        assertEquals(1, LeaseCluster.linesWith(outsider, SAID_ONCE), outsider.logText());
        assertEquals(1, LeaseCluster.linesWith(reader, SAID_ONCE), reader.logText());
    }
}
