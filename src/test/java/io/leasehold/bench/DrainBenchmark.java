package io.leasehold.bench;

import static io.leasehold.bench.Figures.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * How soon an idle packaged service picks up a new item, and whether memory stays flat and the
 * counts stay cheap with 100,000 pending items (the drain's rate is {@link DrainRateBenchmark}).
 * Asserts correctness only (every item reaches done/); the figures go to the console and to
 * target/benchmark.md. Run with {@code ./mvnw -B verify -Pbenchmark}.
 */
@Tag("benchmark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrainBenchmark {

    static final int N = 20_000;
    static final int LATENCY_SAMPLES = 200;
    static final int LATENCY_WARMUP = 20;
    static final int MEMORY_ITEMS = 100_000;
    static final long MS = 1_000_000L;

    static final Path WORK = Path.of("target", "bench").toAbsolutePath();
    static final Figures FIGURES = new Figures();

    @Test
    @Order(5)
    void idleServicePicksUpANewItemSoon() throws IOException {
        BenchSpool spool = fresh("latency");
        double[] ms = new double[LATENCY_SAMPLES];
        try (BenchService service = BenchService.start(spool.root, 4, true, WORK.resolve("latency.log"))) {
            service.awaitReady();
            for (int i = 0; i < LATENCY_WARMUP + LATENCY_SAMPLES; i++) {
                String id = BenchSpool.id("lat", i);
                Path tmp = spool.folder("tmp").resolve(id);
                Path pending = spool.folder("pending").resolve(id);
                Files.write(tmp, BenchSpool.payload(i));
                Files.move(tmp, pending, StandardCopyOption.ATOMIC_MOVE);
                long dropped = System.nanoTime();
                long picked = pollTightly(Duration.ofSeconds(10), () -> !Files.exists(pending));
                if (i >= LATENCY_WARMUP) {
                    ms[i - LATENCY_WARMUP] = (picked - dropped) / 1e6;
                }
                Path done = spool.folder("done").resolve(id);
                Await.until(id + " in done/", Duration.ofSeconds(10), () -> Files.exists(done));
            }
        }
        assertEquals(LATENCY_WARMUP + LATENCY_SAMPLES, spool.count("done"), "every item reached done/");
        Arrays.sort(ms);
        String note = LATENCY_SAMPLES + " samples after " + LATENCY_WARMUP + " warm-up; each dropped when idle";
        FIGURES.add("3 pickup", "p50 / p90", num(pct(ms, 50), "ms") + " / " + num(pct(ms, 90), "ms"), note);
        FIGURES.note(String.format("Goal (pickup p50 < 5 ms): %.1f ms, %s.", pct(ms, 50),
                pct(ms, 50) < 5 ? "met" : "NOT met"));
        FIGURES.add("3 pickup", "p99 / max", num(pct(ms, 99), "ms") + " / " + num(ms[ms.length - 1], "ms"),
                "rename into pending/ until it is gone from there");
        spool.delete();
    }

    @Test
    @Order(6)
    void memoryStaysFlatWith100kPending() throws IOException {
        BenchSpool spool = fresh("memory");
        double fillSeconds = spool.fill("m", MEMORY_ITEMS);
        FIGURES.note(String.format("Part 4 spool: %,d items written in %.1f s before each start.", MEMORY_ITEMS,
                fillSeconds));
        try (BenchService service = BenchService.start(spool.root, 4, false, WORK.resolve("memory-idle.log"))) {
            service.awaitReady();
            sample(service, "4 idle 100k", "at start");
            String counts = service.get("/spool").body();
            assertTrue(counts.contains("\"pending\":" + MEMORY_ITEMS), counts);
            timeQueries(service, "4 idle 100k");
            long until = System.nanoTime() + Duration.ofSeconds(12).toNanos();
            int queries = 0;
            for (; System.nanoTime() < until || queries < 10; queries++) {
                service.get("/spool");
                service.get("/items?state=pending&limit=100");
                if (queries == 5) {
                    sample(service, "4 idle 100k", "mid (after 6 x both GETs)");
                }
                LockSupport.parkNanos(500 * MS);
            }
            sample(service, "4 idle 100k", "end (after " + queries + " x both GETs, >=12 s)");
        }
        assertEquals(MEMORY_ITEMS, spool.count("pending"), "auto=false drains nothing");
        try (BenchService service = BenchService.start(spool.root, 4, true, WORK.resolve("memory-drain.log"))) {
            long start = System.nanoTime();
            service.awaitReady();
            sample(service, "4 drain 100k", "at start (ready)");
            Await.value("half of the items in done/", Duration.ofMinutes(10),
                    () -> countSlowly(spool, "done"), done -> done >= MEMORY_ITEMS / 2);
            sample(service, "4 drain 100k", "mid (>= 50k done)");
            timeQueries(service, "4 drain 100k");
            Await.until("all items in done/", Duration.ofMinutes(10),
                    () -> spool.isEmpty("pending") && spool.isEmpty("claimed"));
            double seconds = (System.nanoTime() - start) / 1e9;
            sample(service, "4 drain 100k", "end (all done)");
            assertEquals(MEMORY_ITEMS, spool.count("done"), "every item reached done/");
            FIGURES.add("4 drain 100k", "drain rate c=4", num(MEMORY_ITEMS / seconds, "items/s"),
                    String.format("%.1f s from launch, so startup included", seconds));
        }
        spool.delete();
    }

    /** Counting 100k names costs tens of ms: look only twice a second. */
    private static long countSlowly(BenchSpool spool, String folder) {
        LockSupport.parkNanos(480 * MS);
        return spool.count(folder);
    }

    private static void sample(BenchService service, String part, String when) {
        double[] heap = service.heapMiB();
        FIGURES.add(part, "RSS / heap used / old gen, " + when,
                num(service.rssMiB(), "MiB") + " / " + num(heap[0], "MiB") + " / " + num(heap[1], "MiB"), "-Xmx256m");
    }

    private static void timeQueries(BenchService service, String part) {
        double[] spool = {service.timedGet("/spool"), service.timedGet("/spool"), service.timedGet("/spool")};
        String list = "/items?state=pending&limit=100";
        double[] items = {service.timedGet(list), service.timedGet(list), service.timedGet(list)};
        FIGURES.add(part, "GET /spool (3 calls)", times(spool), "counts every folder");
        FIGURES.add(part, "GET " + list + " (3 calls)", times(items), "oldest 100 of the folder");
        // Three calls on a shared machine say little: 20 more, beside an answer that reads no file at all.
        FIGURES.add(part, "GET /spool, 20 calls: median (min-max)", spread(service, "/spool"), "as above");
        FIGURES.add(part, "GET /q/health/live, 20 calls: median (min-max)", spread(service, "/q/health/live"),
                "the HTTP round trip alone, same run");
    }

    private static String spread(BenchService service, String path) {
        double[] ms = new double[20];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = service.timedGet(path);
        }
        java.util.Arrays.sort(ms);
        return num((ms[9] + ms[10]) / 2, "ms") + " (" + num(ms[0], "") + "-" + num(ms[ms.length - 1], "ms") + ")";
    }

    private static String times(double[] ms) {
        return num(ms[0], "") + ", " + num(ms[1], "") + ", " + num(ms[2], "ms");
    }

    /** Looks every millisecond until the condition holds; returns System.nanoTime() when it did. */
    private static long pollTightly(Duration deadline, java.util.function.BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("nothing happened within " + deadline);
            }
            LockSupport.parkNanos(MS);
        }
        return System.nanoTime();
    }

    private static double pct(double[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static BenchSpool fresh(String name) throws IOException {
        BenchSpool spool = new BenchSpool(WORK.resolve(name));
        spool.delete();
        return new BenchSpool(WORK.resolve(name));
    }

    @AfterAll
    static void report() throws IOException {
        String table = FIGURES.render();
        System.out.println("\n" + table);
        Files.writeString(Path.of("target", "benchmark.md"), table, StandardCharsets.UTF_8);
    }
}
