package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stuck-claim gauges of the packaged service, end to end: an exec handler held past two short claim
 * leases is counted, with the claim's age, while its claim is renewed; once it ends and settles, nothing is.
 */
class StuckClaimsIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void aClaimHeldPastTheBoundIsCountedUntilItSettles() throws Exception {
        Path go = dir.resolve("go");
        Map<String, String> config = Map.of(
                "leasehold.spool.dir", dir.resolve("spool").toString(),
                "leasehold.spool.recount-every", "1s",
                "leasehold.claim.lease", "4s",
                "leasehold.claim.renewals-per-lease", "2",
                "leasehold.metrics.stuck-after-leases", "2",
                "leasehold.handler", "exec",
                // Held until the test lets it go: the claim is renewed all the while.
                "leasehold.handler.exec.command", "while [ ! -e '" + go + "' ]; do sleep 0.1; done");
        try (ServiceProcess service = ServiceProcess.start("stuck", config, Map.of()).awaitReady(WAIT)) {
            assertEquals(201, service.enqueue("held-long", "x").statusCode());
            Await.until("the claim counted as stuck (held past 2 leases of 4 s)", WAIT,
                    () -> service.metric("leasehold_claims_stuck", "") == 1);
            assertTrue(service.metric("leasehold_claims_oldest_age_seconds", "") > 8,
                    "held longer than the bound of 8 s");
            assertTrue(service.get("/items/held-long").contains("\"claimed\""), "still held, renewed");

            Files.createFile(go);
            Await.until("held-long done", WAIT, () -> service.get("/items/held-long").contains("\"done\""));
            Await.until("nothing counted once it settled", WAIT,
                    () -> service.metric("leasehold_claims_stuck", "") == 0
                            && service.metric("leasehold_claims_oldest_age_seconds", "") == 0);
        }
    }
}
