package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.LeaseCommandProcess.Finished;
import io.leasehold.testing.NatsServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A NATS user the bucket is refused to, and nobody holding the lease: {@code lease exec} acts unleased
 * under epoch 0 as the service would (docs/lease.md), and {@code lease status} cannot read: exit 1.
 */
class LeaseExecUnleasedIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String CONFIG = """
            accounts {
              APP {
                jetstream: enabled
                users: [
                  {user: outsider, password: outsider, permissions: {publish: {allow: ["app.>", "$JS.API.INFO"]}}}
                ]
              }
            }
            """;

    private NatsServer nats;
    private Map<String, String> config;

    @BeforeEach
    void start() {
        nats = NatsServer.start(CONFIG);
        // A refusal is heard only when the request times out: well within renew-every, so it is told from silence.
        config = Map.of("leasehold.nats.url", nats.url(), "leasehold.nats.request-timeout", "400ms",
                "leasehold.nats.user", "outsider",
                "leasehold.nats.password", "outsider", "leasehold.lease.bucket", "refused-" + System.nanoTime(),
                "leasehold.lease.duration", "3s", "leasehold.lease.renew-every", "1s",
                "leasehold.lease.renew-deadline", "2s", "leasehold.spool.dir",
                Path.of("target", "it-work", "unleased-" + System.nanoTime()).toAbsolutePath().toString());
    }

    @AfterEach
    void stop() {
        nats.close();
    }

    @Test
    void execActsUnleasedUnderEpochZero() {
        Finished run = LeaseCommandProcess.run("unleased", config, Map.of(), DEADLINE,
                "exec", "--", "sh", "-c", "echo \"epoch=$LEASEHOLD_EPOCH\"; exit 5");
        assertEquals(5, run.status(), run.stderr());
        assertEquals("epoch=0\n", run.stdout());
        assertTrue(run.stderr().contains("serving without the lease"), run.stderr());
    }

    @Test
    void statusThatCannotReadTheLeaseIsStatusOne() {
        Finished run = LeaseCommandProcess.run("status", config, Map.of(), DEADLINE, "status");
        assertEquals(1, run.status(), run.stderr());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().contains("cannot be read"), run.stderr());
    }
}
