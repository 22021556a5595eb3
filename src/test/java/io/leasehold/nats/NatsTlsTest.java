package io.leasehold.nats;

import static io.leasehold.nats.NatsTesting.connectAndUseKv;
import static io.leasehold.nats.NatsTesting.refused;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.NatsServer;
import io.leasehold.testing.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * TLS to a real nats-server whose certificates the test makes (a CA of its own, and a rogue one):
 * the right trust connects and works on KV; an untrusted CA, the JVM's default trust, a certificate
 * for another host, no TLS at all and unreadable stores are refused with a line naming the setting.
 * With {@code verify: true} the server also checks the client's certificate (mutual TLS).
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class NatsTlsTest {

    private static final String PW = TestCertificates.PASSWORD;

    private static Path dir;
    private static TestCertificates ours;
    private static TestCertificates rogue;
    private static TestCertificates otherHost;

    @BeforeAll
    static void makeCertificates() throws IOException {
        dir = Files.createTempDirectory("leasehold-tls-");
        ours = TestCertificates.make(dir.resolve("ours"), "leasehold-test", "ip:127.0.0.1,dns:localhost");
        rogue = TestCertificates.make(dir.resolve("rogue"), "rogue", "ip:127.0.0.1,dns:localhost");
        otherHost = TestCertificates.make(dir.resolve("other-host"), "other-host", "dns:nats.elsewhere.example");
    }

    @AfterAll
    static void removeCertificates() throws IOException {
        try (var all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String tlsUrl(NatsServer server) {
        return "tls://127.0.0.1:" + server.port();
    }

    @Test
    void aServerCertificateFromTheTruststoresCaIsTrusted() throws Exception {
        try (NatsServer server = NatsServer.start(ours.serverTlsBlock(false))) {
            connectAndUseKv(DefaultBus.settings(tlsUrl(server)).withTruststore(ours.truststore(), PW));
            // A nats:// URL with a truststore works too: the server asks for TLS and the client upgrades.
            connectAndUseKv(DefaultBus.settings(server.url()).withTruststore(ours.truststore(), PW));
        }
    }

    @Test
    void aTlsUrlToAServerWithoutTlsSaysSoAndNamesTheFix() {
        try (NatsServer plain = NatsServer.start()) {
            String said = refused(DefaultBus.settings("tls://127.0.0.1:" + plain.port()));
            assertTrue(said.contains("the server does not offer TLS") && said.contains("leasehold.nats.url")
                    && said.contains("nats://"), said);
        }
    }

    @Test
    void untrustedMisnamedOrMissingTlsIsRefusedNamingTheSetting() {
        try (NatsServer server = NatsServer.start(ours.serverTlsBlock(false))) {
            String noTrust = refused(DefaultBus.settings(tlsUrl(server)));
            assertTrue(noTrust.contains("the server's certificate is not trusted")
                    && noTrust.contains("no leasehold.nats.tls.truststore is set"), noTrust);

            String rogueTrust = refused(DefaultBus.settings(tlsUrl(server)).withTruststore(rogue.truststore(), PW), PW);
            assertTrue(rogueTrust.contains("the server's certificate is not trusted")
                    && rogueTrust.contains("check leasehold.nats.tls.truststore"), rogueTrust);

            String plain = refused(DefaultBus.settings(server.url()));
            assertTrue(plain.contains("the server requires TLS"), plain);

            Path missing = dir.resolve("no-such-truststore.p12");
            String unreadable = refused(DefaultBus.settings(tlsUrl(server)).withTruststore(missing, PW), PW);
            assertTrue(unreadable.contains("leasehold.nats.tls.truststore (" + missing + ") is not a readable file"),
                    unreadable);

            String badPassword = refused(DefaultBus.settings(tlsUrl(server)).withTruststore(ours.truststore(),
                    "not-the-store-password"), "not-the-store-password");
            assertTrue(badPassword.contains("leasehold.nats.tls.truststore (" + ours.truststore() + ") cannot be read"),
                    badPassword);
        }
        // jnats alone would take this one: signed by a trusted CA, but for another host.
        try (NatsServer server = NatsServer.start(otherHost.serverTlsBlock(false))) {
            String misnamed = refused(DefaultBus.settings(tlsUrl(server)).withTruststore(otherHost.truststore(), PW));
            assertTrue(misnamed.contains("the server's certificate does not name the host connected to")
                    && misnamed.contains("127.0.0.1"), misnamed);
        }
    }

    @Test
    void mutualTlsNeedsAClientCertificateTheServersCaSigned() throws Exception {
        try (NatsServer server = NatsServer.start(ours.serverTlsBlock(true))) {
            NatsSettings trusting = DefaultBus.settings(tlsUrl(server)).withTruststore(ours.truststore(), PW);
            connectAndUseKv(trusting.withKeystore(ours.clientKeystore(), PW));

            // The server's refusal reaches the client as its alert or, by timing, as a broken pipe on the
            // next write: either way the line names the keystore setting.
            String noKey = refused(trusting);
            assertTrue(noKey.contains("set leasehold.nats.tls.keystore"), noKey);
            String rogueKey = refused(trusting.withKeystore(rogue.clientKeystore(), PW), PW);
            assertTrue(rogueKey.contains("leasehold.nats.tls.keystore"), rogueKey);
        }
    }
}
