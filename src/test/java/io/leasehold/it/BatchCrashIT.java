package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Census;
import io.leasehold.testing.Instances;
import io.leasehold.testing.Reservation;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The packaged service SIGKILLed while clients send it batches of 400, at a different point each round (a batch
 * being staged, a batch whose commit marker is written, after some batches were answered), then started
 * again on the same spool: after its start-up recovery every batch ever sent has all of its items in the
 * spool or none of them — all for every batch answered 201 — no batch is left staged in tmp/, no
 * reservation is left of a batch that is not there, and everything present drains.
 */
class BatchCrashIT {

    private static final int ROUNDS = 6;
    private static final int CLIENTS = 3;
    /** Large enough that linking a batch takes milliseconds: a kill can land between its marker and its end. */
    private static final int ITEMS = 400;
    private static final Duration START = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @RegisterExtension
    final Instances instances = new Instances();

    private record Batch(String name, List<String> ids, int[] status) {
    }

    private Path spool;

    private ServiceProcess start(String name) {
        return instances.add(ServiceProcess.start(name, Map.of(
                "leasehold.spool.dir", spool.toString(),
                "leasehold.drain.auto", "false",
                "quarkus.log.category.\"io.leasehold.handler.LogHandler\".level", "WARN"), Map.of()))
                .awaitReady(START);
    }

    @Test
    void everyBatchIsWholeOrAbsentAfterAKillAndARestart() throws Exception {
        spool = Files.createDirectories(Path.of("target", "it-spool").toAbsolutePath()
                .resolve("batch-crash-" + System.currentTimeMillis()).resolve("spool"));
        List<Batch> sent = Collections.synchronizedList(new ArrayList<>());
        List<String> caught = new ArrayList<>();
        ServiceProcess service = start("batch-0");
        for (int round = 0; round < ROUNDS; round++) {
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            int r = round;
            ServiceProcess target = service;
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                clients.submit(() -> send(target, r, client, stop, sent));
            }
            String point = switch (round % 3) {
                case 0 -> "a batch staged, not committed";
                case 1 -> "a batch committed, its staging not yet removed";
                default -> "after " + (3 + round) + " batches were answered 201";
            };
            int answeredBefore = answered(sent);
            boolean reached = waitFor(round % 3 == 0 ? () -> stagedBatch(false)
                    : round % 3 == 1 ? () -> stagedBatch(true)
                    : () -> answered(sent) >= answeredBefore + 3 + r);
            // SIGKILL straight from this JVM: no kill(1) to start first, so it lands at the moment seen.
            ProcessHandle.of(service.pid()).ifPresent(ProcessHandle::destroyForcibly);
            caught.add("round " + round + ": " + point + (reached ? "" : " (not caught within 20 s: killed anyway)"));
            stop.set(true);
            clients.shutdown();
            assertTrue(clients.awaitTermination(30, TimeUnit.SECONDS), "the clients stop once the service is gone");
            service.awaitExit(Duration.ofSeconds(10));

            service = start("batch-" + (round + 1));
            assertWholeOrAbsent(sent, caught);
        }
        String drained = service.request("/drain?budget=60s", b -> b.POST(HttpRequest.BodyPublishers.noBody())).body();
        long present = Census.of(spool).ids().size();
        assertTrue(drained.contains("\"done\":" + present) && drained.contains("\"idle\":true"),
                "every item the batches left drains: " + drained + ", " + present + " present");
        System.out.println("BatchCrashIT kill points: " + caught + "; batches sent " + sent.size() + ", answered 201 "
                + answered(sent) + ", items present " + present + "; recoveries: " + recoveries());
    }

    /** How many batches the restarted services rolled back and forward, from their logs. */
    private String recoveries() {
        long back = 0;
        long forward = 0;
        for (ServiceProcess process : instances.all()) {
            String log = process.logText();
            back += log.split("rolled back ", -1).length - 1;
            forward += log.split("rolled forward ", -1).length - 1;
        }
        return back + " rolled back, " + forward + " rolled forward";
    }

    /** Sends batches until told to stop or the service is gone; records each with its answer (0: none). */
    private static Void send(ServiceProcess to, int round, int client, AtomicBoolean stop, List<Batch> sent) {
        for (int n = 0; !stop.get(); n++) {
            String name = "r" + round + "c" + client + "b" + n;
            List<String> ids = new ArrayList<>();
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < ITEMS; i++) {
                ids.add(name + "-" + i);
                body.append("{\"id\":\"").append(name).append('-').append(i).append("\",\"payload\":\"item ")
                        .append(i).append(" of ").append(name).append("\"}\n");
            }
            Batch batch = new Batch(name, ids, new int[1]);
            sent.add(batch);
            try {
                HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port()
                        + "/items/batch")).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-ndjson")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                        HttpResponse.BodyHandlers.ofString());
                batch.status()[0] = answer.statusCode();
            } catch (IOException e) {
                return null; // killed mid-request: the outcome is what the spool says after recovery
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private static int answered(List<Batch> sent) {
        synchronized (sent) {
            return (int) sent.stream().filter(b -> b.status()[0] == 201).count();
        }
    }

    /** A batch folder in tmp/, with its commit marker or without. */
    private boolean stagedBatch(boolean committed) {
        try (Stream<Path> entries = Files.list(spool.resolve("tmp"))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("batch~"))
                    .anyMatch(p -> Files.exists(p.resolve("commit")) == committed && has(p, committed));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Uncommitted: some payload staged already; committed: the marker alone says it. */
    private static boolean has(Path batch, boolean committed) {
        if (committed) {
            return true;
        }
        try (Stream<Path> staged = Files.list(batch)) {
            return staged.count() > 10;
        } catch (IOException e) {
            return false; // removed while looked at
        }
    }

    /** Looks every millisecond for up to 20 s; false when the moment never came. */
    private static boolean waitFor(BooleanSupplier moment) {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() - end < 0) {
            if (moment.getAsBoolean()) {
                return true;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return false;
    }

    private void assertWholeOrAbsent(List<Batch> sent, List<String> caught) throws IOException {
        Census census = Census.of(spool);
        List<String> partial = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        List<String> reserved = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        synchronized (sent) {
            for (Batch batch : sent) {
                if (batch.status()[0] != 0 && batch.status()[0] != 201) {
                    refused.add(batch.name() + " answered " + batch.status()[0]);
                }
                long present = batch.ids().stream().filter(id -> !census.states(id).isEmpty()).count();
                if (present != 0 && present != ITEMS) {
                    partial.add(batch.name() + " (" + present + " of " + ITEMS + ")");
                }
                if (batch.status()[0] == 201 && present != ITEMS) {
                    lost.add(batch.name());
                }
                if (present == 0 && batch.ids().stream().anyMatch(id -> Reservation.present(spool.resolve("ids").resolve(id)))) {
                    reserved.add(batch.name());
                }
            }
        }
        assertEquals(List.of(), refused, "every batch answered was enqueued (unanswered ones were cut off)");
        assertEquals(List.of(), partial, "batches half in the spool after " + caught);
        assertEquals(List.of(), lost, "batches answered 201 and not all there after " + caught);
        assertEquals(List.of(), reserved, "batches absent but with reservations left after " + caught);
        try (Stream<Path> tmp = Files.list(spool.resolve("tmp"))) {
            assertEquals(List.of(), tmp.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("batch~")).toList(),
                    "the restarted service finished every batch of the killed one at its start");
        }
    }
}
