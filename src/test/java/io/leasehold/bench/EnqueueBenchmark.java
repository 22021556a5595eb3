package io.leasehold.bench;

import static io.leasehold.bench.Figures.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Durable enqueue, the service against the same file operations in a bare loop in the same run (issue 10):
 * write + fsync + link into pending/ + unlink + fsync of pending/, with 1 and 8 threads; POST /items from 8
 * keep-alive clients; POST /items/batch of 1,000 items. Every figure is the median of {@link #RUNS} runs with
 * min–max, the runs of all rows interleaved so that the machine's load moves them alike. The service does not
 * drain (leasehold.drain.auto=false): only enqueue is timed, as in the bare loop. Asserts only that every
 * item answered 201 is in pending/. Run with {@code ./mvnw -B verify -Pbenchmark -Dit.test=EnqueueBenchmark}.
 */
@Tag("benchmark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EnqueueBenchmark {

    static final int RUNS = 5;
    static final int BARE_ITEMS = 1_000;
    static final int CLIENTS = 8;
    static final int POSTS_PER_CLIENT = 250;
    static final int BATCH = 1_000;
    static final int WRK_SECONDS = 3;

    static final Path WORK = Path.of("target", "bench-enqueue").toAbsolutePath();
    static final Figures FIGURES = new Figures("leasehold enqueue benchmark");
    static BenchSpool spool;
    static BenchService service;
    static final double[][] BARE = new double[2][RUNS];

    @BeforeAll
    static void start() throws IOException {
        // Every run's folders stay until the end: deleting between runs would tax the run after (BenchSpool#fresh).
        BenchSpool.fresh(WORK);
        spool = new BenchSpool(WORK.resolve("service"));
        service = BenchService.start(spool.root, 4, false, WORK.resolve("service.log"));
        service.awaitReady();
    }

    @Test
    @Order(1)
    void singlesAgainstTheBareLoop() throws Exception {
        Parallel.postItems(service.port(), CLIENTS, POSTS_PER_CLIENT, "warm-up"); // JIT and connections, not timed
        Wrk.postItems(service.port(), CLIENTS, 2, WORK); // warm-up of the wrk path too, counted below
        long fromWrk = spool.count("pending") - (long) CLIENTS * POSTS_PER_CLIENT;
        double[] posts = new double[RUNS];
        double[] wrk = new double[RUNS];
        for (int run = 0; run < RUNS; run++) {
            BARE[0][run] = bare(1, run);
            BARE[1][run] = bare(CLIENTS, run);
            posts[run] = Parallel.postItems(service.port(), CLIENTS, POSTS_PER_CLIENT, "r" + run);
            Wrk.Run w = Wrk.postItems(service.port(), CLIENTS, WRK_SECONDS, WORK);
            wrk[run] = w.rate();
            fromWrk += w.requests();
        }
        long expected = (RUNS + 1L) * CLIENTS * POSTS_PER_CLIENT + fromWrk;
        long pending = spool.count("pending");
        // wrk counts the answers it read: a request in flight when its time ran out may have been kept too.
        assertTrue(pending >= expected && pending <= expected + (long) RUNS * CLIENTS,
                "every item answered 201 is in pending/: " + pending + " for " + expected + " answered");
        row("bare", "durable enqueue, 1 thread", BARE[0], RUNS + " x " + BARE_ITEMS + " items");
        row("bare", "durable enqueue, " + CLIENTS + " threads", BARE[1], RUNS + " x " + BARE_ITEMS + " items");
        row("service", "POST /items, " + CLIENTS + " keep-alive clients", posts, RUNS + " x " + CLIENTS * POSTS_PER_CLIENT
                + " items, after one warm-up run");
        row("service", "POST /items, " + CLIENTS + " connections from wrk (outside the JVM)", wrk, RUNS + " x "
                + WRK_SECONDS + " s of wrk -t2 -c" + CLIENTS + ", 100-byte payloads, ids made by the service");
        double ratio = median(posts) / median(BARE[1]);
        double wrkRatio = median(wrk) / median(BARE[1]);
        FIGURES.note(String.format("Goal (POST /items, %d clients >= 0.8x bare %d threads): %.2fx from wrk, %s; "
                + "%.2fx from the benchmark's own clients, in its JVM.", CLIENTS, CLIENTS, wrkRatio,
                wrkRatio >= 0.8 ? "met" : "NOT met", ratio));
    }

    @Test
    @Order(2)
    void batchAgainstOneBareThread() throws Exception {
        postBatch("warm-up");
        double[] batches = new double[RUNS];
        double[] bare = new double[RUNS];
        for (int run = 0; run < RUNS; run++) {
            bare[run] = bare(1, 100 + run);
            batches[run] = postBatch("b" + run);
        }
        row("bare", "durable enqueue, 1 thread (beside the batches)", bare, RUNS + " x " + BARE_ITEMS + " items");
        row("service", "POST /items/batch of " + BATCH, batches, RUNS + " batches, after one warm-up batch");
        double ratio = median(batches) / median(bare);
        FIGURES.note(String.format("Goal (POST /items/batch of %d >= 5x bare 1 thread): %.1fx, %s.", BATCH, ratio,
                ratio >= 5 ? "met" : "NOT met"));
    }

    /** The file operations of one durable enqueue, {@code threads} at once; items/s. */
    private static double bare(int threads, int run) throws Exception {
        BenchSpool raw = new BenchSpool(WORK.resolve("bare-" + threads + "-" + run));
        int each = BARE_ITEMS / threads;
        double seconds = Parallel.seconds(threads, t -> {
            for (int i = 0; i < each; i++) {
                raw.enqueueDurably(BenchSpool.id("t" + t, i), BenchSpool.payload(i));
            }
        });
        assertEquals(each * threads, raw.count("pending"));
        return each * threads / seconds;
    }

    private static double postBatch(String prefix) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < BATCH; i++) {
            body.append("{\"id\":\"").append(prefix).append('-').append(i).append("\",\"payloadBase64\":\"")
                    .append(Base64.getEncoder().encodeToString(BenchSpool.payload(i))).append("\"}\n");
        }
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        try (PlainHttp connection = new PlainHttp(service.port())) {
            long start = System.nanoTime();
            PlainHttp.Answer answer = connection.post("/items/batch", "application/x-ndjson", bytes);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (answer.status() != 201) {
                throw new AssertionError("POST /items/batch answered " + answer.status() + ": " + answer.body());
            }
            return BATCH / seconds;
        }
    }

    private static void row(String part, String measure, double[] rates, String note) {
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        FIGURES.add(part, measure, num(median(rates), "items/s"), "min-max " + num(sorted[0], "") + "-"
                + num(sorted[sorted.length - 1], "items/s") + "; " + note);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    @AfterAll
    static void report() throws IOException {
        if (service != null) {
            service.close();
        }
        String table = FIGURES.render();
        System.out.println("\n" + table);
        Files.writeString(Path.of("target", "benchmark-enqueue.md"), table, StandardCharsets.UTF_8);
        spool.delete();
    }
}
