package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SIGTERM while work runs past the shutdown timeout: the instance exits 0, having handed its claims
 * back to pending/ (not left to expire), and the items then run elsewhere as attempt 1.
 */
class GracefulShutdownIT {

    @RegisterExtension
    final Instances instances = new Instances();
    private SharedSpool spool;

    private ServiceProcess start(String name, String workSeconds) {
        Map<String, String> env = new HashMap<>(spool.env(name));
        env.put("WORK_SECONDS", workSeconds);
        // A lease far longer than the test: if the claims were left to expire, nobody could run them in time.
        ServiceProcess process = ServiceProcess.start(name, spool.config(Map.of(
                "leasehold.claim.lease", "120s",
                "leasehold.drain.concurrency", "2",
                "leasehold.drain.shutdown-timeout", "1s")), env);
        instances.add(process);
        return process.awaitReady(Duration.ofSeconds(60));
    }

    @Test
    void sigtermHandsClaimsBackAndExitsZero() {
        spool = instances.on(SharedSpool.create("shutdown", "sleep \"$WORK_SECONDS\""));
        ServiceProcess slow = start("slow", "30");
        List<String> ids = List.of("h-1", "h-2");
        ids.forEach(id -> spool.enqueue(id, "payload of " + id));
        Await.until("slow works on both items", Duration.ofSeconds(30),
                () -> ids.stream().allMatch(id -> spool.runs("start", id).size() == 1)
                        && spool.names("claimed").size() == 2);

        long askedAt = System.nanoTime();
        slow.terminate();
        int status = slow.awaitExit(Duration.ofSeconds(30));
        Duration stopping = Duration.ofNanos(System.nanoTime() - askedAt);
        assertEquals(0, status, "a SIGTERM is a clean stop:\n" + slow.logText());
        assertTrue(stopping.compareTo(Duration.ofSeconds(15)) < 0, "stopping took " + stopping);

        assertEquals(new TreeSet<>(ids), spool.names("pending"), "both claims are back in pending/");
        assertEquals(new TreeSet<>(), spool.names("claimed"));
        assertEquals(new TreeSet<>(), spool.names("done"));
        assertEquals(new TreeSet<>(), spool.names("failed"));
        ids.forEach(id -> assertEquals("payload of " + id, spool.payload("pending", id)));
        for (String id : ids) {
            assertTrue(slow.logText().contains("handed " + id + " back to pending/"), slow.logText());
            long pid = spool.runs("start", id).get(0).pid();
            Await.until("the cut-short handler of " + id + " is killed", Duration.ofSeconds(10),
                    () -> ServiceProcess.hasEnded(pid));
        }

        ServiceProcess fast = start("fast", "0.2");
        Await.until("both items done", Duration.ofSeconds(60), () -> spool.names("done").equals(new TreeSet<>(ids)));
        for (String id : ids) {
            List<Run> starts = spool.runs("start", id);
            assertEquals(List.of("slow", "fast"), starts.stream().map(Run::instance).toList(), id + ": " + starts);
            assertEquals(List.of(1, 1), starts.stream().map(Run::attempt).toList(),
                    id + ": the hand-back did not count an attempt");
            assertEquals(List.of("fast"), spool.runs("end", id).stream().map(Run::instance).toList(),
                    "only the second run of " + id + " finished");
            assertTrue(fast.get("/items/" + id).contains("\"state\":\"done\""));
        }
        assertEquals(0.0, fast.metric("leasehold_takeovers_total", ""), "nothing was taken over");
    }
}
