package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two packaged instances on one spool get the same id at the same moment, each with its own 64 KiB
 * body, in many trials: exactly one is 201 and the other 409, the item runs once, and done/ keeps the
 * body of the one that was accepted (docs/protocol.md, "no replace, ever").
 */
class DuplicateEnqueueIT {

    private static final int TRIALS = 160;
    private static final int AT_ONCE = 8;
    private static final int BODY = 64 * 1024;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @RegisterExtension
    final Instances instances = new Instances();
    private SharedSpool spool;

    private ServiceProcess start(String name) {
        ServiceProcess process = ServiceProcess.start(name, spool.config(Map.of(
                "leasehold.drain.concurrency", "4",
                "leasehold.drain.poll-interval", "1s")), spool.env(name));
        instances.add(process);
        return process;
    }

    private static byte[] body(char fill, String id) {
        byte[] b = new byte[BODY];
        Arrays.fill(b, (byte) fill);
        byte[] tag = id.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(tag, 0, b, 0, tag.length);
        return b;
    }

    private static CompletableFuture<HttpResponse<String>> post(ServiceProcess to, String id, byte[] body) {
        return HTTP.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port() + "/items?id=" + id))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void concurrentEnqueuesOfOneIdOnTwoInstancesAcceptExactlyOne() throws Exception {
        spool = instances.on(SharedSpool.create("duplicates", ""));
        ServiceProcess one = start("d1");
        ServiceProcess two = start("d2");
        one.awaitReady(Duration.ofSeconds(60));
        two.awaitReady(Duration.ofSeconds(60));

        Map<String, String> accepted = new TreeMap<>(); // id -> which body ('A' or 'B') got the 201
        List<String> wrong = new ArrayList<>();
        for (int from = 0; from < TRIALS; from += AT_ONCE) {
            List<String> ids = new ArrayList<>();
            List<CompletableFuture<HttpResponse<String>>> toOne = new ArrayList<>();
            List<CompletableFuture<HttpResponse<String>>> toTwo = new ArrayList<>();
            for (int n = from; n < Math.min(TRIALS, from + AT_ONCE); n++) {
                String id = "dup-" + n;
                ids.add(id);
                toOne.add(post(one, id, body('A', id)));
                toTwo.add(post(two, id, body('B', id)));
            }
            for (int i = 0; i < ids.size(); i++) {
                int a = toOne.get(i).get().statusCode();
                int b = toTwo.get(i).get().statusCode();
                if (a == 201 && b == 409) {
                    accepted.put(ids.get(i), "A");
                } else if (a == 409 && b == 201) {
                    accepted.put(ids.get(i), "B");
                } else {
                    wrong.add(ids.get(i) + ": " + a + "/" + b + " " + toOne.get(i).get().body() + " "
                            + toTwo.get(i).get().body());
                }
            }
        }
        System.out.printf("DuplicateEnqueueIT: %d trials, %d not exactly one 201 and one 409%n", TRIALS, wrong.size());
        assertEquals(List.of(), wrong.subList(0, Math.min(5, wrong.size())), "each pair answers one 201 and one 409");

        Await.until("everything is drained", Duration.ofMinutes(2),
                () -> spool.names("pending").isEmpty() && spool.names("claimed").isEmpty()
                        && spool.names("done").size() >= TRIALS);
        TreeSet<String> all = new TreeSet<>(accepted.keySet());
        assertEquals(all, spool.names("done"), "every id is in done/ once");
        assertEquals(new TreeSet<>(), spool.names("failed"));
        assertEquals(new TreeSet<>(), spool.names("pending"));
        assertEquals(new TreeSet<>(), spool.names("claimed"));
        for (String id : all) {
            assertEquals(1, spool.runs("start", id).size(), id + " ran exactly once: " + spool.runs("start", id));
            String kept = spool.payload("done", id);
            assertEquals(new String(body(accepted.get(id).charAt(0), id), StandardCharsets.US_ASCII), kept,
                    id + ": done/ holds the body that was accepted");
        }
        assertTrue(spool.names("tmp").isEmpty(), "no upload left in tmp/: " + spool.names("tmp"));
    }
}
