package io.leasehold.it;

import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged service on a nats-server that asks for TLS with client certificates and a password:
 * configured right it holds the lease; with a wrong password or without a client certificate it waits,
 * saying why in /lease and once in the log, with no stack trace and no secret anywhere; asking
 * {@code leasehold.lease.replicas=3} of a lone server waits with the key named (no hang), and an
 * existing R1 bucket is used as it is, said in the log.
 */
class NatsSecurityIT {

    private static final String PASSWORD = "alice-it-pw-51d0";
    private static final String WRONG = "wrong-it-pw-77aa";
    private static final String PW = TestCertificates.PASSWORD;

    private LeaseCluster cluster;
    private Path certs;

    @AfterEach
    void close() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
        if (certs != null) {
            try (var all = Files.walk(certs)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Test
    void rightSettingsHoldTheLeaseAndWrongOnesWaitSayingWhyOnceWithoutSecrets() throws IOException {
        certs = Files.createTempDirectory("leasehold-it-tls-");
        TestCertificates ca = TestCertificates.make(certs, "leasehold-it", "ip:127.0.0.1");
        NatsServer nats = NatsServer.start(ca.serverTlsBlock(true)
                + "authorization { users: [ {user: alice, password: \"" + PASSWORD + "\"} ] }\n");
        cluster = new LeaseCluster("nats-security", nats, LeaseCluster.work(""));
        String url = "tls://127.0.0.1:" + nats.port();
        Map<String, String> right = Map.of("leasehold.nats.url", url,
                "leasehold.nats.tls.truststore", ca.truststore().toString(), "leasehold.nats.tls.truststore-password", PW,
                "leasehold.nats.tls.keystore", ca.clientKeystore().toString(), "leasehold.nats.tls.keystore-password", PW,
                "leasehold.nats.user", "alice", "leasehold.nats.password", PASSWORD);

        ServiceProcess good = cluster.start("good", right);
        Map<String, String> wrongPassword = new HashMap<>(right);
        wrongPassword.remove("leasehold.nats.user");
        wrongPassword.remove("leasehold.nats.password");
        wrongPassword.put("leasehold.nats.url", "tls://alice:" + WRONG + "@127.0.0.1:" + nats.port());
        ServiceProcess badPassword = cluster.start("bad-password", wrongPassword);
        Map<String, String> withoutCertificate = new HashMap<>(right);
        withoutCertificate.remove("leasehold.nats.tls.keystore");
        withoutCertificate.remove("leasehold.nats.tls.keystore-password");
        ServiceProcess noCertificate = cluster.start("no-certificate", withoutCertificate);
        Map<String, String> threeReplicas = new HashMap<>(right);
        threeReplicas.put("leasehold.lease.replicas", "3");
        threeReplicas.put("leasehold.lease.bucket", "lease-r3-" + UUID.randomUUID().toString().substring(0, 8));
        ServiceProcess r3 = cluster.start("r3-new-bucket", threeReplicas);
        List<ServiceProcess> all = List.of(good, badPassword, noCertificate, r3);
        for (ServiceProcess p : all) {
            p.awaitReady(START); // waiting is no reason to be unready: it just acts under no epoch
        }

        Lease held = Await.value("good holds the lease", Duration.ofSeconds(30), () -> lease(good),
                l -> l != null && l.mode().equals("held"));
        assertTrue(held.epoch() > 0, held.raw());

        Lease refused = waitingSaying(badPassword, "the server refused this client's credentials (Authorization Violation)");
        assertTrue(refused.reason().contains("check the user info in leasehold.nats.url")
                && refused.reason().contains("tls://***@127.0.0.1:" + nats.port()), refused.raw());
        Lease noCert = waitingSaying(noCertificate, "leasehold.nats.tls.keystore");
        Lease replicas = waitingSaying(r3, "leasehold.lease.replicas");
        assertTrue(replicas.reason().contains("replicas > 1 not supported in non-clustered mode"), replicas.raw());

        // Every connect try is one more error in the server's log; after several, each said it once.
        Await.until("bad-password tried at least 4 times", Duration.ofSeconds(30),
                () -> nats.log().lines().filter(l -> l.contains("authentication error")).count() >= 4);
        Await.until("no-certificate tried at least 4 times", Duration.ofSeconds(30),
                () -> nats.log().lines().filter(l -> l.contains("TLS handshake error")).count() >= 4);
        assertEquals(1, LeaseCluster.linesWith(badPassword, "cannot connect to NATS at"), badPassword.logText());
        assertEquals(1, LeaseCluster.linesWith(noCertificate, "cannot connect to NATS at"), noCertificate.logText());
        assertEquals(1, LeaseCluster.linesWith(r3, "the lease bucket"), r3.logText());

        // An R1 bucket that exists is used with replicas=3 asked: the instance waits on the holder.
        Map<String, String> threeOnExisting = new HashMap<>(right);
        threeOnExisting.put("leasehold.lease.replicas", "3");
        ServiceProcess existing = cluster.start("r3-existing-bucket", threeOnExisting).awaitReady(START);
        Lease waiting = Await.value("r3-existing-bucket waits on good", Duration.ofSeconds(30), () -> lease(existing),
                l -> l != null && l.mode().equals("waiting") && l.heldBy(good));
        assertEquals(held.epoch(), waiting.epoch(), waiting.raw());
        assertEquals(1, LeaseCluster.linesWith(existing, "exists with 1 replica(s), fewer than the 3 of "
                + "leasehold.lease.replicas: it is used as it is"), existing.logText());

        for (ServiceProcess p : List.of(good, badPassword, noCertificate, r3, existing)) {
            String shown = p.logText() + p.get("/lease") + p.get("/q/health/ready");
            for (String secret : new String[] {PASSWORD, WRONG, PW}) {
                assertFalse(shown.contains(secret), p.name() + " shows a secret:\n" + shown);
            }
            assertFalse(shown.lines().anyMatch(l -> l.startsWith("\tat ") || l.contains("Exception in thread")),
                    p.name() + " logged a stack trace:\n" + shown);
        }
    }

    private static Lease waitingSaying(ServiceProcess p, String text) {
        return Await.value(p.name() + " waits saying " + text, Duration.ofSeconds(30), () -> lease(p),
                l -> l != null && l.mode().equals("waiting") && l.reason() != null && l.reason().contains(text));
    }
}
