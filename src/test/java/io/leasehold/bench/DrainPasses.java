package io.leasehold.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** One timed pass of each consumer {@link DrainRateBenchmark} compares, over {@link #N} items, each checked. */
final class DrainPasses {

    /** Items per pass: 20,000, or {@code -Dbench.n} (a smoke run's few thousand: its figures mean little). */
    static final int N = Integer.getInteger("bench.n", 20_000);
    private static final Duration SETTLE = Duration.ofMinutes(5);

    private DrainPasses() {
    }

    /** One POST /drain pass over N items filled before it; returns its seconds. */
    static double pass(BenchService service, BenchSpool spool, String prefix) throws IOException {
        fill(spool, prefix);
        long start = System.nanoTime();
        String report = service.post("/drain?budget=10m").body();
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(report.contains("\"done\":" + N) && report.contains("\"idle\":true"), report);
        return seconds;
    }

    /** Camel's route started on N items filled before it, until pending/ is empty; returns the seconds. */
    static double camelPass(ReferenceConsumer camel, BenchSpool spool, String prefix) throws IOException {
        fill(spool, prefix);
        long before = spool.count("done");
        long read = camel.itemsRead();
        long start = System.nanoTime();
        camel.start();
        Await.until("Camel to take " + N + " items from " + spool.folder("pending"), SETTLE,
                () -> spool.isEmpty("pending"));
        double seconds = (System.nanoTime() - start) / 1e9;
        camel.stop();
        settledByCamel(camel, spool, before, read);
        return seconds;
    }

    /** Drops N items as fast as the test can into an auto-draining service's spool; returns the seconds until done. */
    static double arrive(BenchSpool spool, String prefix) throws IOException {
        long before = spool.count("done");
        long start = System.nanoTime();
        drop(spool, prefix);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(before + N, spool.count("done"), "every item reached done/");
        assertEquals(0, spool.count("failed"), "no item failed");
        return seconds;
    }

    /** As {@link #arrive}, with Camel's route started before the first drop and stopped after the last is done. */
    static double camelArrive(ReferenceConsumer camel, BenchSpool spool, String prefix) throws IOException {
        long before = spool.count("done");
        long read = camel.itemsRead();
        camel.start();
        long start = System.nanoTime();
        drop(spool, prefix);
        double seconds = (System.nanoTime() - start) / 1e9;
        camel.stop();
        settledByCamel(camel, spool, before, read);
        return seconds;
    }

    /** Runs a bare loop over N items filled before it; checks that it settled them all. */
    static BareDrain.Run bareRun(BenchSpool bare, String prefix, Function<List<String>, BareDrain.Run> loop)
            throws IOException {
        List<String> ids = fill(bare, prefix);
        long before = bare.count("done");
        BareDrain.Run run = loop.apply(ids);
        assertEquals(before + N, bare.count("done"), "the bare loop settled every item");
        return run;
    }

    static List<String> fill(BenchSpool spool, String prefix) throws IOException {
        List<String> ids = new ArrayList<>(N);
        for (int i = 0; i < N; i++) {
            String id = BenchSpool.id(prefix, i);
            spool.enqueue(id, BenchSpool.payload(i));
            ids.add(id);
        }
        return ids;
    }

    /** Enqueues N items one after the other, then waits until pending/ and claimed/ are empty. */
    private static void drop(BenchSpool spool, String prefix) throws IOException {
        for (int i = 0; i < N; i++) {
            spool.enqueue(BenchSpool.id(prefix, i), BenchSpool.payload(i));
        }
        Await.until(N + " arriving items settled in " + spool.root, SETTLE,
                () -> spool.isEmpty("pending") && spool.isEmpty("claimed"));
    }

    private static void settledByCamel(ReferenceConsumer camel, BenchSpool spool, long doneBefore, long readBefore) {
        assertEquals(doneBefore + N, spool.count("done"), "Camel moved every item to done/");
        assertEquals(0, spool.count("pending"), "Camel left nothing (nor a marker file) in pending/");
        assertEquals(readBefore + N, camel.itemsRead(), "Camel read each payload once");
    }
}
