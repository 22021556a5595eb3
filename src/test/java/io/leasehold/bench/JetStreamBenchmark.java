package io.leasehold.bench;

import static io.leasehold.bench.Figures.num;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.testing.NatsServer;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import io.nats.client.Nats;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.StorageType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The JetStream spool against the same JetStream calls in a bare jnats loop, in the same run, on a
 * nats-server of the benchmark's own (issue 11). Enqueue: the id's reservation (a create) and the entry
 * turned pending with its payload inline (an update), 1 and 8 at once, against POST /items from 8
 * keep-alive clients. Drain: per item the entry read and updated to claimed, once more for a renewal, the
 * entry read again (for the payload) and updated to done, one item after another, against POST /drain at
 * concurrency 4. The directory spool's POST /items and POST /drain beside them, in the same run. Pickup: one item posted to an idle,
 * auto-draining service until the API shows it done. Medians of {@link #RUNS} with min–max; asserts only
 * that every item was answered 201 and ended done. {@code ./mvnw -B verify -Pbenchmark -Dit.test=JetStreamBenchmark}.
 */
@Tag("benchmark")
class JetStreamBenchmark {

    static final int N = 2_000;
    static final int RUNS = 3;
    static final int CLIENTS = 8;
    static final int PICKUPS = 40;
    static final Path WORK = Path.of("target", "bench-jetstream").toAbsolutePath();
    static final Figures FIGURES = new Figures("leasehold JetStream spool benchmark");
    /** An entry of the size the service writes: the benchmark's payload inline. */
    static final byte[] ENTRY = ("{\"state\":\"pending\",\"attempt\":1,\"enqueuedAt\":\"2026-12-01T00:00:00Z\","
            + "\"inline\":\"" + Base64.getEncoder().encodeToString(BenchSpool.payload(1000)) + "\","
            + "\"records\":{},\"token\":\"abcdefghijkl\"}").getBytes(StandardCharsets.UTF_8);
    static NatsServer nats;
    static Connection bare;
    static int buckets;

    @BeforeAll
    static void start() throws Exception {
        nats = NatsServer.start();
        bare = Nats.connect(nats.url());
    }

    @AfterAll
    static void report() throws Exception {
        bare.close();
        nats.close();
        String table = FIGURES.render();
        System.out.println("\n" + table);
        Files.writeString(Path.of("target", "benchmark-jetstream.md"), table, StandardCharsets.UTF_8);
    }

    private static KeyValue bucket() throws Exception {
        String name = "bare-" + ++buckets;
        bare.keyValueManagement().create(KeyValueConfiguration.builder().name(name).maxHistoryPerKey(1)
                .storageType(StorageType.File).build());
        return bare.keyValue(name);
    }

    /** The enqueue's calls: the id's reservation (a create), the entry turned pending (an update); items/s on {@code threads}. */
    private static double bareEnqueue(KeyValue kv, int threads) throws Exception {
        return parallel(threads, t -> {
            for (int i = 0; i < N / threads; i++) {
                String id = "t" + t + "-" + i;
                long revision = kv.create(id, ENTRY);
                kv.update(id, ENTRY, revision);
            }
        });
    }

    /** The drain's calls for each item, one item after another; items/s. */
    private static double bareDrain(KeyValue kv) throws Exception {
        return parallel(1, t -> {
            for (int i = 0; i < N; i++) {
                String id = "t0-" + i;
                long revision = kv.get(id).getRevision();
                revision = kv.update(id, ENTRY, revision); // claimed
                revision = kv.update(id, ENTRY, revision); // renewed
                revision = kv.get(id).getRevision(); // the payload, inline
                kv.update(id, ENTRY, revision); // done
            }
        });
    }

    /** Items/s of {@code N} items over {@code threads}. */
    private static double parallel(int threads, Parallel.Work work) throws Exception {
        return N / Parallel.seconds(threads, work);
    }

    /**
     * A service on a folder as new as this run's nats-server: the epoch floor kept there must not say that
     * the server issued epochs before (that would be a wipe, which the lease waits out before acting).
     */
    private static BenchService service(String name, boolean auto) throws Exception {
        Path dir = WORK.resolve(name + "-" + System.currentTimeMillis());
        BenchService service = BenchService.start(dir, 4, auto, WORK.resolve(name + ".log"), Map.of(
                "leasehold.spool.kind", "jetstream", "leasehold.spool.jetstream.bucket", name,
                "leasehold.nats.url", nats.url()));
        service.awaitReady();
        return service;
    }

    /** One drain pass of the {@code N} items just posted; items/s. */
    private static double timedPass(BenchService service) throws Exception {
        long start = System.nanoTime();
        String pass = service.post("/drain?budget=10m").body();
        double rate = N / ((System.nanoTime() - start) / 1e9);
        assertEquals(true, pass.contains("\"done\":" + N), pass);
        return rate;
    }

    @Test
    void enqueueAndDrainAgainstTheBareCallsAndPickup() throws Exception {
        double[] bare1 = new double[RUNS];
        double[] bare8 = new double[RUNS];
        double[] bareDrain = new double[RUNS];
        double[] posts = new double[RUNS];
        double[] drains = new double[RUNS];
        double[] dirPosts = new double[RUNS];
        double[] dirDrains = new double[RUNS];
        try (BenchService service = service("service", false);
                BenchService directory = BenchService.start(WORK.resolve("directory-" + System.currentTimeMillis()), 4,
                        false, WORK.resolve("directory.log"), Map.of())) {
            directory.awaitReady();
            for (BenchService warming : List.of(service, directory)) { // JIT and connections, not timed
                Parallel.postItems(warming.port(), CLIENTS, N / CLIENTS, "warm-up");
                String warm = warming.post("/drain?budget=10m").body();
                assertEquals(true, warm.contains("\"done\":" + N), "the warm-up pass: " + warm);
            }
            for (int run = 0; run < RUNS; run++) {
                dirPosts[run] = Parallel.postItems(directory.port(), CLIENTS, N / CLIENTS, "r" + run);
                dirDrains[run] = timedPass(directory);
                KeyValue one = bucket();
                bare1[run] = bareEnqueue(one, 1);
                bareDrain[run] = bareDrain(one);
                bare8[run] = bareEnqueue(bucket(), CLIENTS);
                posts[run] = Parallel.postItems(service.port(), CLIENTS, N / CLIENTS, "r" + run);
                drains[run] = timedPass(service);
            }
        }
        row("bare", "enqueue calls (reserve, pending with the payload inline), 1 thread", bare1);
        row("bare", "enqueue calls, " + CLIENTS + " threads", bare8);
        row("service", "POST /items, " + CLIENTS + " keep-alive clients", posts);
        row("bare", "drain calls per item (read, claim, renew, read, settle), 1 thread", bareDrain);
        row("service", "POST /drain, concurrency 4", drains);
        row("directory", "POST /items, " + CLIENTS + " keep-alive clients, the directory spool (same run)", dirPosts);
        row("directory", "POST /drain, concurrency 4, the directory spool (same run)", dirDrains);
        // The baseline is the loop that does not overlap its calls (1 thread); leasehold may overlap
        // them (8 clients, drain concurrency 4). The 8-thread loop is the stricter comparison, shown beside it.
        FIGURES.note(String.format("POST /items: %.2fx the bare 1-thread enqueue (goal >= 0.8x), %.2fx the bare "
                + "%d-thread one; drain: %.2fx the bare loop (goal >= 0.8x).", median(posts) / median(bare1),
                median(posts) / median(bare8), CLIENTS, median(drains) / median(bareDrain)));

        double[] pickups = new double[PICKUPS];
        try (BenchService service = service("pickup", true)) {
            for (int i = 0; i < PICKUPS; i++) {
                String id = "pick-" + i;
                long start = System.nanoTime();
                assertEquals(201, service.post("/items?id=" + id).statusCode());
                long deadline = start + 10_000_000_000L;
                while (!service.get("/items/" + id).body().contains("\"state\":\"done\"")) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError(id + " not done within 10 s");
                    }
                }
                pickups[i] = (System.nanoTime() - start) / 1e6;
            }
        }
        double[] sorted = pickups.clone();
        Arrays.sort(sorted);
        FIGURES.add("service", "enqueue to done, one item into an idle auto-draining service",
                num(sorted[PICKUPS / 2], "ms") + " p50", "p90 " + num(sorted[PICKUPS * 9 / 10], "ms") + ", max "
                        + num(sorted[PICKUPS - 1], "ms") + "; " + PICKUPS + " items (goal p50 < 20 ms)");
    }

    private static void row(String part, String measure, double[] rates) {
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        FIGURES.add(part, measure, num(median(rates), "items/s"), "min-max " + num(sorted[0], "") + "-"
                + num(sorted[sorted.length - 1], "items/s") + "; " + RUNS + " x " + N + " items");
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
