package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.leasehold.testing.Await;
import io.leasehold.testing.Census;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.Tmpfs;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Fault suite, read-only spool: the spool's tmpfs is remounted read-only while items are at work and
 * waiting (root writes through any file mode, so only the mount can refuse it). Readiness goes DOWN
 * naming the spool, enqueues are refused, nothing is lost; remounted read-write, readiness is UP again
 * and everything drains, each item run once.
 */
class ReadOnlySpoolFaultIT {

    private static final String WORK = SharedSpool.AWAIT_GATE + "\nsleep 0.2";

    @AutoClose
    private final SoloInstance solo = SoloInstance.create("read-only", WORK);

    @Test
    void aReadOnlySpoolIsNotReadyRefusesEnqueuesAndLosesNothing() {
        SharedSpool spool = solo.spool;
        Tmpfs tmpfs = solo.onTmpfs("16m");
        // One instance: a second one could rightly take over claims whose renewals the mount refused.
        ServiceProcess service = solo.start(List.of());

        List<String> accepted = new ArrayList<>();
        int rounds = FaultRounds.count();
        for (int round = 1; round <= rounds; round++) {
            long started = System.nanoTime();
            String r = "r" + round;
            List<String> held = IntStream.rangeClosed(1, 5).mapToObj(n -> r + "-held-" + n).toList();
            held.forEach(id -> Answers.assertEnqueued(service, id, "payload of " + id));
            accepted.addAll(held);
            Await.until(r + ": two items at work", Duration.ofSeconds(30),
                    () -> held.stream().filter(id -> !spool.runs("start", id).isEmpty()).count() == 2);

            tmpfs.remountReadOnly();
            long readOnlyAt = System.nanoTime();
            HttpResponse<String> ready = Await.value("readiness DOWN", Duration.ofSeconds(10),
                    () -> service.request("/q/health/ready", b -> b.GET()), answer -> answer.statusCode() == 503);
            double downAfter = (System.nanoTime() - readOnlyAt) / 1e9;
            JsonNode check = spoolCheck(Answers.json(ready, 503));
            assertEquals("DOWN", check.path("status").asText(), ready.body());
            assertEquals(spool.spoolDir().toString(), check.path("data").path("dir").asText(), "names the spool");

            String refused = r + "-refused";
            JsonNode error = Answers.json(service.enqueue(refused, "refused"), 500);
            assertTrue(error.path("error").asText().contains("Read-only file system"), error.toString());
            Census whileReadOnly = Census.awaitEachOnce(spool.spoolDir(), accepted, Duration.ofSeconds(20));
            assertEquals(List.of(), whileReadOnly.states(refused), "the refused item is nowhere");
            assertEquals(200, service.status("/q/health/live"), "alive on a read-only spool");
            // The two at work end now, and their settlements meet the read-only mount.
            spool.openGate(r);
            Await.until(r + ": both attempts ended", Duration.ofSeconds(30),
                    () -> service.metric("leasehold_attempts_total", "") >= accepted.size() - 3);
            Census.awaitEachOnce(spool.spoolDir(), accepted, Duration.ofSeconds(20));

            tmpfs.remountWritable();
            Await.until("readiness UP again", Duration.ofSeconds(10), () -> service.status("/q/health/ready") == 200);
            List<String> after = IntStream.rangeClosed(1, 5).mapToObj(n -> r + "-after-" + n).toList();
            after.forEach(id -> Answers.assertEnqueued(service, id, "payload of " + id));
            accepted.addAll(after);
            Await.until(r + ": drained", Duration.ofSeconds(90),
                    () -> spool.names("done").containsAll(accepted));
            Census census = Census.awaitEachOnce(spool.spoolDir(), accepted, Duration.ofSeconds(20));
            assertEquals(accepted.stream().sorted().toList(), census.in("done"), "every item done, nothing else");
            List<String> thisRound = new ArrayList<>(held);
            thisRound.addAll(after);
            assertEquals(Map.of(), spool.notRunOnce(thisRound), "no item run twice or never");
            System.out.printf("ReadOnlySpoolFaultIT round %d/%d: readiness DOWN %.2f s after the remount; enqueue"
                    + " answered 500 (%s); %d items, each done once; %.1f s%n", round, rounds, downAfter,
                    error.path("error").asText(), accepted.size(), (System.nanoTime() - started) / 1e9);
        }
    }

    private static JsonNode spoolCheck(JsonNode health) {
        for (JsonNode check : health.path("checks")) {
            if (check.path("name").asText().equals("spool")) {
                return check;
            }
        }
        throw new AssertionError("no check named spool in " + health);
    }
}
