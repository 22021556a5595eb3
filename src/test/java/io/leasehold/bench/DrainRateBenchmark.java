package io.leasehold.bench;

import static io.leasehold.bench.Figures.median;
import static io.leasehold.bench.Figures.num;
import static io.leasehold.bench.Figures.spread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The packaged service's drain against the same file operations in a bare loop ({@link BareDrain}),
 * run after run in turn on the same filesystem, so the machine's load moves both alike. Each row is
 * the median of {@link #RUNS} runs with min-max; every run of a row measures the service and its
 * reference one after the other. Asserts correctness only (every item reaches done/); the figures go
 * to the console and to target/drain-rate.md. Run with {@code ./mvnw -B verify -Pbenchmark}.
 */
@Tag("benchmark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrainRateBenchmark {

    static final int N = 20_000;
    static final int RUNS = 3;
    static final Path WORK = Path.of("target", "bench-rate").toAbsolutePath();
    static final Figures FIGURES = new Figures();

    @Test
    @Order(1)
    void prefilledBacklogAtConcurrency1() throws IOException {
        prefilled(1, 1);
    }

    @Test
    @Order(2)
    void prefilledBacklogAtConcurrency8() throws IOException {
        prefilled(8, 2);
    }

    @Test
    @Order(3)
    void itemsArrivingWhileItDrains() throws IOException {
        BenchSpool spool = fresh("arriving");
        BenchSpool bare = fresh("arriving-bare");
        Files.createDirectories(bare.folder("ids"));
        double[] service = new double[RUNS];
        double[] serviceCpu = new double[RUNS];
        double[] reference = new double[RUNS];
        double[] referenceCpu = new double[RUNS];
        try (BenchService s = BenchService.start(spool.root, 1, true, WORK.resolve("arriving.log"))) {
            s.awaitReady();
            arrive(s, spool, "warm"); // JIT warm-up: not counted
            for (int run = 0; run < RUNS; run++) {
                BareDrain.Run r = BareDrain.protocolWhileArriving(bare, "b" + run, N);
                reference[run] = r.rate();
                referenceCpu[run] = r.cpuMicrosPerItem();
                double cpuBefore = s.cpuSeconds();
                double seconds = arrive(s, spool, "r" + run);
                service[run] = N / seconds;
                serviceCpu[run] = (s.cpuSeconds() - cpuBefore) * 1e6 / N;
            }
        }
        report("arriving, c=1", service, serviceCpu, reference, referenceCpu,
                "bare loop: a producer drops items, one thread works each as it lands");
    }

    /** Drops N items as fast as the test can; returns the seconds from the first drop until all are done. */
    private static double arrive(BenchService service, BenchSpool spool, String prefix) throws IOException {
        long before = spool.count("done");
        long start = System.nanoTime();
        for (int i = 0; i < N; i++) {
            spool.enqueue(BenchSpool.id(prefix, i), BenchSpool.payload(i));
        }
        Await.until(N + " arriving items settled", Duration.ofMinutes(5),
                () -> spool.isEmpty("pending") && spool.isEmpty("claimed"));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(before + N, spool.count("done"), "every item reached done/");
        assertEquals(0, spool.count("failed"), "no item failed");
        return seconds;
    }

    private void prefilled(int concurrency, int bareThreads) throws IOException {
        BenchSpool spool = fresh("prefilled-c" + concurrency);
        BenchSpool bare = fresh("prefilled-bare-c" + concurrency);
        BenchSpool plain = fresh("prefilled-renames-c" + concurrency);
        Files.createDirectories(bare.folder("ids"));
        double[] service = new double[RUNS];
        double[] serviceCpu = new double[RUNS];
        double[] reference = new double[RUNS];
        double[] referenceCpu = new double[RUNS];
        double[] renames = new double[RUNS];
        try (BenchService s = BenchService.start(spool.root, concurrency, false,
                WORK.resolve("prefilled-c" + concurrency + ".log"))) {
            s.awaitReady();
            pass(s, spool, "warm"); // JIT warm-up: not counted
            for (int run = 0; run < RUNS; run++) {
                BareDrain.Run r = bareRun(bare, "p" + run, ids -> BareDrain.protocol(bare, ids, bareThreads));
                reference[run] = r.rate();
                referenceCpu[run] = r.cpuMicrosPerItem();
                renames[run] = bareRun(plain, "q" + run, ids -> BareDrain.renames(plain, ids, bareThreads)).rate();
                double cpuBefore = s.cpuSeconds();
                double seconds = pass(s, spool, "r" + run);
                service[run] = N / seconds;
                serviceCpu[run] = (s.cpuSeconds() - cpuBefore) * 1e6 / N;
            }
        }
        String part = "pre-filled, c=" + concurrency;
        report(part, service, serviceCpu, reference, referenceCpu, "bare loop: " + bareThreads + " thread"
                + (bareThreads == 1 ? "" : "s") + ", every item's operations in turn");
        FIGURES.add(part, "bare loop: only the 3 renames, " + bareThreads + " thread(s)", spread(renames, "items/s"),
                String.format("what a file consumer without reservations or records does; the drain is at %.2fx",
                        median(service) / median(renames)));
    }

    private static BareDrain.Run bareRun(BenchSpool bare, String prefix,
            java.util.function.Function<List<String>, BareDrain.Run> loop) throws IOException {
        List<String> ids = fill(bare, prefix);
        long before = bare.count("done");
        BareDrain.Run run = loop.apply(ids);
        assertEquals(before + N, bare.count("done"), "the bare loop settled every item");
        return run;
    }

    /** One POST /drain pass over N items filled before it; returns its seconds. */
    private static double pass(BenchService service, BenchSpool spool, String prefix) throws IOException {
        fill(spool, prefix);
        long start = System.nanoTime();
        String report = service.post("/drain?budget=10m").body();
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(report.contains("\"done\":" + N) && report.contains("\"idle\":true"), report);
        return seconds;
    }

    private static List<String> fill(BenchSpool spool, String prefix) throws IOException {
        List<String> ids = new ArrayList<>(N);
        for (int i = 0; i < N; i++) {
            String id = BenchSpool.id(prefix, i);
            spool.enqueue(id, BenchSpool.payload(i));
            ids.add(id);
        }
        return ids;
    }

    private static void report(String part, double[] service, double[] serviceCpu, double[] reference,
            double[] referenceCpu, String referenceNote) {
        double ratio = median(service) / median(reference);
        FIGURES.add(part, "leasehold drain", spread(service, "items/s"),
                String.format("%.2fx the bare loop (goal >= 0.8x: %s)", ratio, ratio >= 0.8 ? "met" : "NOT met"));
        FIGURES.add(part, "bare loop, same file operations", spread(reference, "items/s"), referenceNote);
        double cpuRatio = median(serviceCpu) / median(referenceCpu);
        FIGURES.add(part, "CPU per item: leasehold / bare loop", spread(serviceCpu, "us") + " / "
                + spread(referenceCpu, "us"), String.format("%.1fx (goal <= 2x: %s); leasehold's whole process",
                        cpuRatio, cpuRatio <= 2 ? "met" : "NOT met"));
    }

    /** A spool of its own, empty (see {@link BenchSpool#fresh}). */
    private static BenchSpool fresh(String name) throws IOException {
        return BenchSpool.fresh(WORK.resolve(name));
    }

    @AfterAll
    static void write() throws IOException {
        FIGURES.note("N=" + N + " no-op items per run (log handler at WARN), " + RUNS + " runs per row, each run "
                + "the bare loop then the service; the bare loop also renews every item once, which the service "
                + "(renewing every claim.lease/3 = 40 s) does not do within a pass. Nothing is deleted between runs: "
                + "ext4 makes inodes freed in the last seconds costly to allocate again, which would tax whichever "
                + "loop came next (settled items and their reservations accumulate instead, alike in both).");
        String table = FIGURES.render();
        System.out.println("\n" + table);
        Files.writeString(Path.of("target", "drain-rate.md"), table, StandardCharsets.UTF_8);
    }
}
