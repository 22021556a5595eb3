package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Census;
import io.leasehold.testing.Faketime;
import io.leasehold.testing.Instances;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault suite, clocks and uploads: two instances share a spool; one's wall clock is stepped two hours
 * ahead (libfaketime; its monotonic clock runs true, as after an NTP step) while slow uploads stream into
 * the other for longer than two of the stepped one's housekeeping passes (one every {@link #HOUSEKEEPING}
 * here, against a minute by default, with a 20 s upload-timeout: the same rule, its passes closer). Judged by its
 * wall clock alone, every upload in tmp/ looks an hour past tmp-max-age to it: it removed live uploads
 * of the other instance, whose POSTs then failed. Now it removes a file only once it saw it unchanged
 * for upload-timeout on its own monotonic clock: every upload is answered 201, and a real leftover (a
 * crashed upload, half an hour old) is still removed by the stepped instance.
 */
class ClockStepUploadsFaultIT {

    /** A new upload every second, each streaming {@link #CHUNKS} chunks a second apart. */
    private static final int CHUNKS = 8;
    /** Paces the staged load (one upload a second, each sending a chunk a second): nothing here sleeps. */
    private static final java.util.concurrent.ScheduledExecutorService PACER =
            Executors.newScheduledThreadPool(4, r -> {
                Thread t = new Thread(r, "upload-pacer");
                t.setDaemon(true);
                return t;
            });
    /** Housekeeping's period on both instances: many passes within the uploads, not one a minute. */
    private static final Duration HOUSEKEEPING = Duration.ofSeconds(5);
    /** Each upload takes {@link #CHUNKS} - 1 s; a crash's leftover goes once seen unchanged for twice this. */
    private static final String UPLOAD_TIMEOUT = "20s";
    /** Longer than several housekeeping passes, and than twice the upload-timeout (the leftover's wait). */
    private static final Duration UPLOADING = Duration.ofSeconds(45);

    @RegisterExtension
    final Instances instances = new Instances();

    @Test
    void aWallClockSteppedAheadRemovesNoLiveUploadOfAnotherInstanceAndStillRemovesLeftovers() throws Exception {
        SharedSpool spool = instances.on(SharedSpool.create("clock-uploads", "true"));
        Faketime stepped = Faketime.steppable(spool.root().resolve("stepped.faketime"));
        ServiceProcess writer = start(spool, "writer", Map.of());
        ServiceProcess ahead = start(spool, "ahead", stepped.env());
        instances.all().forEach(p -> p.awaitReady(Duration.ofSeconds(120)));

        // A crashed upload half an hour old, with its reservation: stale only by the stepped clock.
        Path tmp = spool.spoolDir().resolve("tmp");
        Path dead = Files.writeString(tmp.resolve("enqueue~crashed-upload~1"), "half a body");
        long ino = ((Number) Files.getAttribute(dead, "unix:ino")).longValue();
        Path reservation = Files.writeString(spool.spoolDir().resolve("ids/crashed-upload"), ino + "\n");
        for (Path p : List.of(dead, reservation)) {
            Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(Duration.ofMinutes(30))));
        }
        stepped.step("+2h");

        long started = System.nanoTime();
        ExecutorService uploaders = Executors.newFixedThreadPool(CHUNKS + 4);
        Map<String, Future<String>> answers = new TreeMap<>();
        try {
            // The load's pace: a new slow upload a second, each started by the pacer at its second.
            for (int n = 1; n <= UPLOADING.toSeconds(); n++) {
                String id = "slow-" + n;
                java.util.concurrent.CompletableFuture<String> answer = new java.util.concurrent.CompletableFuture<>();
                // The pacer only hands the upload to its own thread: a pacer thread never waits on one.
                PACER.schedule(() -> uploaders.execute(() -> answer.complete(slowUpload(writer, id))), n - 1,
                        TimeUnit.SECONDS);
                answers.put(id, answer);
            }
            Map<String, Integer> counts = new TreeMap<>();
            List<String> refused = new ArrayList<>();
            for (Map.Entry<String, Future<String>> a : answers.entrySet()) {
                String status = a.getValue().get(60, TimeUnit.SECONDS);
                counts.merge(status, 1, Integer::sum);
                if (!status.startsWith("201")) {
                    refused.add(a.getKey() + ": " + status);
                }
            }
            assertEquals(List.of(), refused, "every slow upload answered 201 (" + counts + ")");
        } finally {
            uploaders.shutdownNow();
        }
        Await.until("the crashed upload and its reservation removed by the stepped instance", Duration.ofSeconds(90),
                () -> !Files.exists(dead) && !Files.exists(reservation));
        List<String> ids = new ArrayList<>(answers.keySet());
        Await.until("all done", Duration.ofSeconds(60), () -> spool.names("done").containsAll(ids));
        Census census = Census.awaitEachOnce(spool.spoolDir(), ids, Duration.ofSeconds(20));
        assertEquals(ids.stream().sorted().toList(), census.in("done"), "every upload an item, done once");
        assertFalse(ahead.logText().contains("vanished"), "no upload vanished under the writer");
        assertTrue(ahead.isAlive() && writer.isAlive());
        System.out.printf("ClockStepUploadsFaultIT: %d uploads of %d s each into the writer while the other"
                + " instance's wall clock ran 2 h ahead through its housekeeping: all 201, each done once; the"
                + " crashed upload removed by the stepped instance; %.0f s%n", ids.size(), CHUNKS,
                (System.nanoTime() - started) / 1e9);
    }

    private ServiceProcess start(SharedSpool spool, String name, Map<String, String> env) {
        Map<String, String> allEnv = new HashMap<>(spool.env(name));
        allEnv.putAll(env);
        Map<String, String> config = new HashMap<>(SoloInstance.SHORT_LEASES);
        config.put("leasehold.spool.housekeeping-every", HOUSEKEEPING.toSeconds() + "s");
        config.put("leasehold.item.upload-timeout", UPLOAD_TIMEOUT);
        ServiceProcess p = ServiceProcess.start(name, spool.config(config), allEnv);
        instances.add(p);
        return p;
    }

    /** POST /items?id= with a body sent in chunks a second apart; the status line, or what went wrong. */
    private static String slowUpload(ServiceProcess to, String id) {
        byte[] chunk = ("chunk of " + id + "\n").repeat(20).getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket("127.0.0.1", to.port())) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write(RawClients.postHead("/items?id=" + id, (long) chunk.length * CHUNKS));
            out.write(chunk);
            out.flush();
            // The staged fault itself: a client that sends its body slowly, a chunk a second, paced by the pacer
            // while this thread waits for the answer (which comes only once the last chunk is in).
            for (int i = 1; i < CHUNKS; i++) {
                PACER.schedule(() -> {
                    try {
                        out.write(chunk);
                        out.flush();
                    } catch (IOException cut) {
                        // cut off by the service: the answer read below says so
                    }
                }, i, TimeUnit.SECONDS);
            }
            String line = RawClients.statusLine(s.getInputStream());
            return line.isEmpty() ? "cut off" : line.substring(line.indexOf(' ') + 1);
        } catch (IOException e) {
            return "failed: " + e;
        }
    }
}
