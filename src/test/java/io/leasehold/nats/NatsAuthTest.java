package io.leasehold.nats;

import static io.leasehold.nats.NatsTesting.connectAndUseKv;
import static io.leasehold.nats.NatsTesting.refused;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.NatsOperator;
import io.leasehold.testing.NatsServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Each way of logging in to a real nats-server: the right credentials connect and work on KV; wrong
 * or missing ones are refused with one line that names the setting to look at and holds no secret.
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class NatsAuthTest {

    private static final String ALICE_PASSWORD = "alice-pw-7f3e";
    private static final String TOKEN = "tok-9c21-secret";

    @TempDir
    Path dir;

    @Test
    void userAndPassword() throws Exception {
        try (NatsServer server = NatsServer.start(
                "authorization { users: [ {user: alice, password: \"" + ALICE_PASSWORD + "\"} ] }")) {
            connectAndUseKv(DefaultBus.settings(server.url()).withUser("alice", ALICE_PASSWORD));

            String wrong = refused(DefaultBus.settings(server.url()).withUser("alice", "guess-1234"), "guess-1234");
            assertTrue(wrong.contains("the server refused this client's credentials (Authorization Violation)")
                    && wrong.contains("check leasehold.nats.user and leasehold.nats.password"), wrong);
            String none = refused(DefaultBus.settings(server.url()));
            assertTrue(none.contains("none are set"), none);

            // User info in the URL works, and is masked wherever the URL is shown.
            String withInfo = "nats://alice:" + ALICE_PASSWORD + "@127.0.0.1:" + server.port();
            connectAndUseKv(DefaultBus.settings(withInfo));
            String wrongInfo = refused(DefaultBus.settings("nats://alice:guess-5678@127.0.0.1:" + server.port()
                    + ", nats://127.0.0.1:1"), "guess-5678");
            assertTrue(wrongInfo.contains("check the user info in leasehold.nats.url"), wrongInfo);
            assertTrue(DefaultBus.settings(withInfo).safeUrls().equals("nats://***@127.0.0.1:" + server.port()),
                    DefaultBus.settings(withInfo).safeUrls());
        }
    }

    @Test
    void token() throws Exception {
        try (NatsServer server = NatsServer.start("authorization { token: \"" + TOKEN + "\" }")) {
            connectAndUseKv(DefaultBus.settings(server.url()).withToken(TOKEN));

            String wrong = refused(DefaultBus.settings(server.url()).withToken("tok-wrong-0000"), "tok-wrong-0000");
            assertTrue(wrong.contains("(Authorization Violation)") && wrong.contains("check leasehold.nats.token"),
                    wrong);
            String none = refused(DefaultBus.settings(server.url()));
            assertTrue(none.contains("none are set"), none);
            String inUrl = refused(DefaultBus.settings("nats://tok-in-url-1111@127.0.0.1:" + server.port()),
                    "tok-in-url-1111");
            assertTrue(inUrl.contains("check the user info in leasehold.nats.url"), inUrl);
        }
    }

    @Test
    void aCredsFileSignedByTheServersOperator() throws Exception {
        NatsOperator operator = NatsOperator.create();
        try (NatsServer server = NatsServer.start(operator.serverConfig())) {
            Path creds = operator.userCreds(dir.resolve("user.creds"));
            connectAndUseKv(DefaultBus.settings(server.url()).withCredentials(creds));

            String seed = Files.readString(creds).lines().filter(l -> l.startsWith("SU")).findFirst().orElseThrow();
            Path stranger = NatsOperator.strangerCreds(dir.resolve("stranger.creds"));
            String unknown = refused(DefaultBus.settings(server.url()).withCredentials(stranger), seed);
            assertTrue(unknown.contains("(Authorization Violation)")
                    && unknown.contains("check leasehold.nats.credentials (" + stranger + ")"), unknown);

            Path missing = dir.resolve("missing.creds");
            String unreadable = refused(DefaultBus.settings(server.url()).withCredentials(missing));
            assertTrue(unreadable.contains("leasehold.nats.credentials " + missing + " cannot be read"), unreadable);

            String none = refused(DefaultBus.settings(server.url()));
            assertTrue(none.contains("none are set"), none);
        }
    }
}
