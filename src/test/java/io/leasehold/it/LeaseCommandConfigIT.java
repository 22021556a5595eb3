package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.NatsServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Command mode of the packaged jar reads the service's configuration, as the service does:
 * {@code config/application.properties} of its working directory, the {@code %prod} profile unless
 * {@code quarkus.profile} names another, the environment over the file and {@code -D} over both; a
 * value that cannot be read is one line naming its key, exit 1. {@code lease status} shows the bucket
 * and key it read, on a real nats-server.
 */
class LeaseCommandConfigIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private NatsServer nats;
    private Path cwd;

    @BeforeEach
    void setUp() throws IOException {
        nats = NatsServer.start();
        cwd = Files.createDirectories(Path.of("target", "it-work", "command-config-" + System.nanoTime()))
                .toAbsolutePath();
    }

    @AfterEach
    void tearDown() {
        nats.close();
    }

    private void configFile(String text) throws IOException {
        Files.writeString(Files.createDirectories(cwd.resolve("config")).resolve("application.properties"), text);
    }

    private LeaseCommandProcess.Finished status(Map<String, String> properties, Map<String, String> env) {
        try (LeaseCommandProcess p = LeaseCommandProcess.startIn(cwd, "status", properties, env, "status")) {
            int status = p.awaitExit(DEADLINE);
            return new LeaseCommandProcess.Finished(status, p.stdout(), p.stderr());
        }
    }

    private static JsonNode said(LeaseCommandProcess.Finished run) throws IOException {
        assertEquals(0, run.status(), run.stderr());
        return JSON.readTree(run.stdout());
    }

    @Test
    void theWorkingDirectorysFileProfilesEnvironmentAndPropertiesAreRead() throws IOException {
        configFile("leasehold.nats.url=" + nats.url() + "\n"
                + "leasehold.lease.bucket=file-bucket\n"
                + "leasehold.lease.key=plain-key\n"
                + "%prod.leasehold.lease.key=prod-key\n"
                + "%staging.leasehold.lease.key=staging-key\n");
        JsonNode prod = said(status(Map.of(), Map.of()));
        assertEquals("free", prod.get("state").asText(), "the URL from the file reached the server: " + prod);
        assertEquals("file-bucket", prod.get("bucket").asText(), prod.toString());
        assertEquals("prod-key", prod.get("key").asText(), "%prod is the profile of the packaged jar");

        assertEquals("staging-key", said(status(Map.of(), Map.of("QUARKUS_PROFILE", "staging"))).get("key").asText());

        JsonNode env = said(status(Map.of(), Map.of("LEASEHOLD_LEASE_BUCKET", "env-bucket")));
        assertEquals("env-bucket", env.get("bucket").asText(), "the environment over the file");

        Map<String, String> properties = new HashMap<>(Map.of("leasehold.lease.bucket", "property-bucket"));
        JsonNode both = said(status(properties, Map.of("LEASEHOLD_LEASE_BUCKET", "env-bucket")));
        assertEquals("property-bucket", both.get("bucket").asText(), "-D over the environment");
        assertEquals("prod-key", both.get("key").asText());
    }

    @Test
    void aValueThatCannotBeReadIsOneLineNamingItsKey() throws IOException {
        configFile("leasehold.nats.url=" + nats.url() + "\nleasehold.lease.renew-every=soon\n");
        LeaseCommandProcess.Finished run = status(Map.of(), Map.of());
        assertEquals(1, run.status(), run.stderr());
        assertEquals("", run.stdout());
        assertEquals("leasehold: invalid configuration: leasehold.lease.renew-every cannot be \"soon\": not a"
                + " duration (write it as 500ms, 30s, 5m, 2h or PT5M)\n", run.stderr(), "one line, no stack trace");

        configFile("leasehold.nats.url=" + nats.url() + "\nleasehold.lease.renew-deadline=20s\n");
        run = status(Map.of(), Map.of());
        assertEquals(1, run.status(), run.stderr());
        assertTrue(run.stderr().startsWith("leasehold: invalid configuration: leasehold.lease.duration (15s)"),
                "the service's own rule, naming the key:\n" + run.stderr());
        assertFalse(run.stderr().strip().contains("\n"), run.stderr());
    }
}
