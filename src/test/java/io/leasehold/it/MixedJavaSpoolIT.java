package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.PackagedArtifact;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The jar on Java 17 and on Java 25 share one spool (docs/operations.md: Java versions mix freely): the one
 * settles by link and unlink and syncs a batch by an fsync per item, the other by one renameat2 and one
 * syncfs, and the names they make are the same. Both take batches and drain side by side; the Java 25 one is
 * SIGKILLed while it holds two items, which the Java 17 one takes over. Every item ends in done/ once.
 */
class MixedJavaSpoolIT {

    /** The second JDK, where this project's machines have it (the pom's linux-calls profile uses the same). */
    private static final Path JAVA_25 = Path.of(System.getProperty("leasehold.it.java25",
            "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"));
    private static final String WORK = String.join("\n",
            "case \"$LEASEHOLD_ITEM_ID:$LEASEHOLD_ATTEMPT\" in",
            "  long-*:1) sleep 30 ;;",
            "  *) sleep 0.1 ;;",
            "esac");
    private static final int BATCH = 40;
    private static final int DROPPED = 30;

    @RegisterExtension
    final Instances instances = new Instances();
    private SharedSpool spool;

    private ServiceProcess start(String name, PackagedArtifact artifact) {
        ServiceProcess process = ServiceProcess.start(name, spool.config(Map.of(
                "leasehold.claim.lease", "3s",
                "leasehold.claim.renewals-per-lease", "3",
                "leasehold.claim.max-skew", "500ms",
                "leasehold.drain.poll-interval", "1s",
                "leasehold.drain.concurrency", "3")), spool.env(name), List.of(), artifact);
        instances.add(process);
        return process;
    }

    @Test
    void instancesOnJava17AndJava25ShareASpoolAndLoseNothingWhenOneIsKilled() {
        PackagedArtifact jar = PackagedArtifact.current();
        Assumptions.assumeTrue(jar.type() == PackagedArtifact.Type.JAR && Files.isExecutable(JAVA_25)
                && Runtime.version().feature() < 22, "needs the jar, a suite on Java 17-21, and a JDK 25 at " + JAVA_25);
        spool = instances.on(SharedSpool.create("mixed-java", WORK));
        ServiceProcess on25 = start("j25", jar.onJava(JAVA_25)).awaitReady(Duration.ofSeconds(60));
        assertTrue(on25.logText().contains("claims are settled by one renameat2, batches synced by one syncfs"),
                on25.logText());
        List<String> longIds = List.of("long-1", "long-2");
        longIds.forEach(id -> spool.enqueue(id, "payload of " + id));
        Await.until("the Java 25 instance runs both long items", Duration.ofSeconds(30),
                () -> longIds.stream().allMatch(id -> !spool.runs("start", id).isEmpty()));

        ServiceProcess on17 = start("j17", jar).awaitReady(Duration.ofSeconds(60));
        assertTrue(on17.logText().contains("claims are settled by link and unlink, batches synced by an fsync per item"),
                on17.logText());
        List<String> all = new ArrayList<>(longIds);
        all.addAll(batch(on25, "b25"));
        all.addAll(batch(on17, "b17"));
        List<String> dropped = IntStream.rangeClosed(1, DROPPED).mapToObj(n -> "drop-" + n).toList();
        dropped.forEach(id -> spool.enqueue(id, "payload of " + id));
        all.addAll(dropped);
        Await.until("both instances settle items", Duration.ofSeconds(60), () -> {
            List<Run> ends = spool.runs().stream().filter(r -> r.kind().equals("end")).toList();
            return ends.stream().anyMatch(r -> r.instance().equals("j25"))
                    && ends.stream().anyMatch(r -> r.instance().equals("j17"));
        });

        longIds.forEach(id -> Await.until("j25 holds " + id, Duration.ofSeconds(5),
                () -> spool.claims(id, 1).size() == 1));
        on25.kill();
        assertEquals(137, on25.awaitExit(Duration.ofSeconds(10)), "SIGKILL ends j25");

        Await.until("pending/ and claimed/ are empty", Duration.ofMinutes(2),
                () -> spool.names("pending").isEmpty() && spool.names("claimed").isEmpty());
        assertEquals(new TreeSet<>(all), spool.names("done"), "every item is done, nothing else is");
        assertEquals(new TreeSet<>(), spool.names("failed"));
        all.forEach(id -> assertEquals("payload of " + id, spool.payload("done", id), "payload of " + id + " kept"));
        // An item ran once, or twice when it was held by j25 at the kill (the long ones, and whatever its third
        // slot held, which may have ended there unsettled): then its takeover ran on j17 and ended.
        for (String id : all) {
            List<Run> starts = spool.runs("start", id);
            List<Run> ends = spool.runs("end", id);
            if (longIds.contains(id) || starts.size() > 1) {
                assertEquals(List.of(1, 2), starts.stream().map(Run::attempt).toList(), id + ": " + starts);
                assertEquals("j25", starts.get(0).instance(), id + " first ran on the killed instance");
                assertEquals("j17", starts.get(1).instance(), id + " taken over by the Java 17 instance");
                assertTrue(ends.stream().anyMatch(r -> r.attempt() == 2 && r.instance().equals("j17")),
                        id + ": the takeover ended: " + ends);
                assertTrue(ends.stream().allMatch(r -> r.attempt() == 2 || r.instance().equals("j25")), id + ": " + ends);
            } else {
                assertEquals(1, ends.size(), id + " ended once: " + ends);
            }
        }
        assertTrue(longIds.stream().allMatch(id -> spool.runs("end", id).stream().noneMatch(r -> r.attempt() == 1)),
                "a long item's first attempt, killed with j25, never ended");
        String log17 = on17.logText();
        assertFalse(log17.contains("left alone:"), "j17 found junk: " + log17);
        assertNotEquals(0.0, on17.metric("leasehold_takeovers_total", ""));
    }

    /** One POST /items/batch of {@value #BATCH} items through {@code instance}; answers their ids. */
    private static List<String> batch(ServiceProcess instance, String prefix) {
        List<String> ids = IntStream.rangeClosed(1, BATCH).mapToObj(n -> prefix + "-" + n).toList();
        StringBuilder body = new StringBuilder();
        ids.forEach(id -> body.append("{\"id\":\"").append(id).append("\",\"payload\":\"payload of ").append(id)
                .append("\"}\n"));
        HttpResponse<String> answer = instance.request("/items/batch", r -> r.header("Content-Type",
                "application/x-ndjson").POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        assertEquals(201, answer.statusCode(), instance.name() + ": " + answer.body());
        return ids;
    }
}
