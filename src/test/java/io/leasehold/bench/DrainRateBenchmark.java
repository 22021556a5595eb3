package io.leasehold.bench;

import static io.leasehold.bench.DrainPasses.N;
import static io.leasehold.bench.Figures.median;
import static io.leasehold.bench.Figures.spread;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The packaged service's drain against Apache Camel's file consumer ({@link ReferenceConsumer}, issue 29's
 * goal: the drain at 1.5x Camel's rate or better) and against the same file operations in bare loops
 * ({@link BareDrain}: the protocol's, and the three renames alone), run after run in turn on the same
 * filesystem, so the machine's load moves them alike. Each row is the median of {@link #RUNS} runs with
 * min-max; every run of a row measures the bare protocol loop, the bare renames, Camel and the service one
 * after the other, each on a spool of its own. Asserts correctness only (every item reaches done/, Camel reads
 * each payload once); the figures go to the console and to target/drain-rate.md. Run with {@code ./mvnw -B
 * verify -Pbenchmark -Dit.test=DrainRateBenchmark}; {@code -Dbench.n=2000} for a smoke run.
 */
@Tag("benchmark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrainRateBenchmark {

    static final int RUNS = 3;
    /** Issue 29: the drain at least this many times Camel's file consumer's rate. */
    static final double GOAL_OVER_CAMEL = 1.5;
    /** Issue 10: the drain at least this share of the bare protocol loop's rate. */
    static final double GOAL_OVER_BARE = 0.8;
    static final Path WORK = Path.of("target", "bench-rate").toAbsolutePath();
    static final Figures FIGURES = new Figures();
    private static String camelSetup = "";

    /** What earlier runs left is deleted once, here, with one wait for ext4 (see {@link BenchSpool#fresh}). */
    @BeforeAll
    static void wipe() throws IOException {
        BenchSpool.wipe(WORK);
    }

    @Test
    @Order(1)
    void prefilledBacklogAtConcurrency1() throws IOException {
        prefilled(1);
    }

    @Test
    @Order(2)
    void prefilledBacklogAtConcurrency4TheDefault() throws IOException {
        prefilled(4);
    }

    @Test
    @Order(3)
    void prefilledBacklogAtConcurrency8() throws IOException {
        prefilled(8);
    }

    @Test
    @Order(4)
    void itemsArrivingAtConcurrency1() throws IOException {
        arriving(1);
    }

    @Test
    @Order(5)
    void itemsArrivingAtConcurrency8() throws IOException {
        arriving(8);
    }

    /** The figures of one row, run by run. */
    private static final class Row {
        final double[] service = new double[RUNS];
        final double[] serviceCpu = new double[RUNS];
        final double[] camel = new double[RUNS];
        final double[] bare = new double[RUNS];
        final double[] bareCpu = new double[RUNS];
        final double[] renames = new double[RUNS];
        final String loadBefore = Figures.loadAverage();
    }

    /** N items filled before each pass: one POST /drain, Camel's route started until pending/ is empty. */
    private void prefilled(int concurrency) throws IOException {
        String name = "prefilled-c" + concurrency;
        Spools s = new Spools(name);
        int threads = bareThreads(concurrency);
        Row row = new Row();
        Path log = WORK.resolve(name + ".log");
        try (BenchService service = BenchService.start(s.service.root, concurrency, false, log);
                ReferenceConsumer camel = ReferenceConsumer.camel(s.camel.root, concurrency)) {
            describe(camel);
            service.awaitReady();
            DrainPasses.pass(service, s.service, "warm"); // JIT warm-up: not counted
            DrainPasses.camelPass(camel, s.camel, "warm");
            for (int run = 0; run < RUNS; run++) {
                BareDrain.Run r = DrainPasses.bareRun(s.bare, "p" + run,
                        ids -> BareDrain.protocol(s.bare, ids, threads));
                row.bare[run] = r.rate();
                row.bareCpu[run] = r.cpuMicrosPerItem();
                row.renames[run] = DrainPasses.bareRun(s.renames, "q" + run,
                        ids -> BareDrain.renames(s.renames, ids, threads)).rate();
                row.camel[run] = N / DrainPasses.camelPass(camel, s.camel, "r" + run);
                double cpuBefore = service.cpuSeconds();
                row.service[run] = N / DrainPasses.pass(service, s.service, "r" + run);
                row.serviceCpu[run] = (service.cpuSeconds() - cpuBefore) * 1e6 / N;
            }
        }
        report("pre-filled, c=" + concurrency, row, concurrency, threads, "every item's operations in turn");
    }

    /** N items dropped in by the test while an auto-draining service (or started Camel route) takes them. */
    private void arriving(int concurrency) throws IOException {
        String name = "arriving-c" + concurrency;
        Spools s = new Spools(name);
        int threads = bareThreads(concurrency);
        Row row = new Row();
        Path log = WORK.resolve(name + ".log");
        try (BenchService service = BenchService.start(s.service.root, concurrency, true, log);
                ReferenceConsumer camel = ReferenceConsumer.camel(s.camel.root, concurrency)) {
            describe(camel);
            service.awaitReady();
            DrainPasses.arrive(s.service, "warm"); // JIT warm-up: not counted
            DrainPasses.camelArrive(camel, s.camel, "warm");
            for (int run = 0; run < RUNS; run++) {
                BareDrain.Run r = BareDrain.protocolWhileArriving(s.bare, "b" + run, N, threads);
                row.bare[run] = r.rate();
                row.bareCpu[run] = r.cpuMicrosPerItem();
                row.renames[run] = BareDrain.renamesWhileArriving(s.renames, "q" + run, N, threads).rate();
                row.camel[run] = N / DrainPasses.camelArrive(camel, s.camel, "r" + run);
                double cpuBefore = service.cpuSeconds();
                row.service[run] = N / DrainPasses.arrive(s.service, "r" + run);
                row.serviceCpu[run] = (service.cpuSeconds() - cpuBefore) * 1e6 / N;
            }
        }
        report("arriving, c=" + concurrency, row, concurrency, threads,
                "a producer drops items, the threads work each as it lands");
    }

    /** Camel's set-up for the notes, from the first row run (later rows differ only in threads(c)). */
    private static void describe(ReferenceConsumer camel) {
        if (camelSetup.isEmpty()) {
            camelSetup = camel.describe();
        }
    }

    /** The bare loops' threads: as many as the service's slots, at most one per core. */
    private static int bareThreads(int concurrency) {
        return Math.min(concurrency, Runtime.getRuntime().availableProcessors());
    }

    private static void report(String part, Row row, int concurrency, int threads, String bareNote) {
        String loadAfter = Figures.loadAverage();
        double overCamel = median(row.service) / median(row.camel);
        double overBare = median(row.service) / median(row.bare);
        FIGURES.add(part, "leasehold drain", spread(row.service, "items/s"), String.format(
                "%.2fx Camel (goal >= %.1fx: %s); %.2fx the bare loop (issue 10's goal >= %.1fx: %s)", overCamel,
                GOAL_OVER_CAMEL, overCamel >= GOAL_OVER_CAMEL ? "met" : "NOT met", overBare, GOAL_OVER_BARE,
                overBare >= GOAL_OVER_BARE ? "met" : "NOT met"));
        FIGURES.add(part, "Camel file consumer, readLock=rename, same run", spread(row.camel, "items/s"),
                concurrency == 1 ? "the consumer's own thread" : ".threads(" + concurrency + ") after the consumer");
        String t = threads + " thread" + (threads == 1 ? "" : "s");
        FIGURES.add(part, "bare loop, same file operations", spread(row.bare, "items/s"), t + ": " + bareNote);
        FIGURES.add(part, "bare loop: only the 3 renames", spread(row.renames, "items/s"), String.format(
                "%s; a file consumer without reservations or records; the drain is at %.2fx", t,
                median(row.service) / median(row.renames)));
        double cpuRatio = median(row.serviceCpu) / median(row.bareCpu);
        FIGURES.add(part, "CPU per item: leasehold / bare loop", spread(row.serviceCpu, "us") + " / "
                + spread(row.bareCpu, "us"), String.format("%.1fx (goal <= 2x: %s); leasehold's whole process",
                        cpuRatio, cpuRatio <= 2 ? "met" : "NOT met"));
        FIGURES.add(part, "load average before / after the row", row.loadBefore + " / " + loadAfter,
                "/proc/loadavg: 1, 5 and 15 min");
    }

    /** The row's four spools, one per consumer, made in the folder {@link #wipe} emptied. */
    private static final class Spools {
        final BenchSpool service;
        final BenchSpool camel;
        final BenchSpool bare;
        final BenchSpool renames;

        Spools(String name) throws IOException {
            Function<String, Path> at = suffix -> WORK.resolve(name + suffix);
            service = new BenchSpool(at.apply(""));
            camel = new BenchSpool(at.apply("-camel"));
            bare = new BenchSpool(at.apply("-bare"));
            renames = new BenchSpool(at.apply("-renames"));
            Files.createDirectories(bare.folder("ids"));
        }
    }

    @AfterAll
    static void write() throws IOException {
        FIGURES.note("N=" + N + " no-op items per run (log handler at WARN), " + RUNS + " runs per row, each run "
                + "the bare protocol loop, the bare renames, Camel, then the service, each on a spool of its own, "
                + "after one warm-up pass of the service and of Camel. The bare loop also renews every item once, "
                + "which the service (renewing every claim.lease/3 = 40 s) does not do within a pass. Nothing is "
                + "deleted between runs: ext4 makes inodes freed in the last seconds costly to allocate again, "
                + "which would tax whichever loop came next (settled items and their reservations accumulate "
                + "instead, alike in all). Pre-filled rows time one POST /drain, and Camel from its route's start "
                + "until pending/ is empty; arriving rows time from the first drop until pending/ (and claimed/) "
                + "are empty, looked at every 50 ms at most.");
        FIGURES.note("Java " + Runtime.version() + "; the settlement by " + (BareDrain.LINUX.isPresent()
                ? "one renameat2(RENAME_NOREPLACE) and one utimensat, in the service and the bare loop"
                : "the JDK's link, unlink and set-times, in the service and the bare loop") + ".");
        FIGURES.note("Camel runs in the benchmark's JVM (the producer's, in arriving rows), the service in its own: "
                + camelSetup + ".");
        String table = FIGURES.render();
        System.out.println("\n" + table);
        Files.writeString(Path.of("target", "drain-rate.md"), table, StandardCharsets.UTF_8);
    }
}
