package io.leasehold.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Work on {@code n} threads started together, timed from the start until the last one ended. */
final class Parallel {

    interface Work {
        void run(int thread) throws Exception;
    }

    private Parallel() {
    }

    /** Seconds from the start until the last of the {@code n} threads ended; a thread's failure fails it. */
    static double seconds(int n, Work work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<?>> done = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < n; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    work.run(thread);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * {@code perClient} POST /items from each of {@code clients} keep-alive connections, ids {@code
     * <prefix>-c<client>-<i>}, every one answered 201; items/s.
     */
    static double postItems(int port, int clients, int perClient, String prefix) throws Exception {
        PlainHttp[] connections = new PlainHttp[clients];
        for (int c = 0; c < clients; c++) {
            connections[c] = new PlainHttp(port); // connected before the clock starts, as keep-alive
        }
        try {
            double seconds = seconds(clients, c -> {
                for (int i = 0; i < perClient; i++) {
                    String id = prefix + "-c" + c + "-" + i;
                    PlainHttp.Answer answer = connections[c].post("/items?id=" + id, "application/octet-stream",
                            BenchSpool.payload(i));
                    if (answer.status() != 201) {
                        throw new AssertionError("POST /items?id=" + id + " answered " + answer.status() + ": "
                                + answer.body());
                    }
                }
            });
            return clients * perClient / seconds;
        } finally {
            for (PlainHttp connection : connections) {
                connection.close();
            }
        }
    }

    /**
     * {@code batches} POST /items/batch of {@code size} lines each, shared out over {@code clients}
     * keep-alive connections, ids {@code <prefix>-b<batch>-<line>}, every one answered 201; items/s.
     */
    static double postBatches(int port, int clients, int batches, int size, String prefix) throws Exception {
        PlainHttp[] connections = new PlainHttp[clients];
        for (int c = 0; c < clients; c++) {
            connections[c] = new PlainHttp(port);
        }
        try {
            double seconds = seconds(clients, c -> {
                for (int b = c; b < batches; b += clients) {
                    StringBuilder body = new StringBuilder();
                    for (int i = 0; i < size; i++) {
                        body.append("{\"id\":\"").append(prefix).append("-b").append(b).append('-').append(i)
                                .append("\",\"payloadBase64\":\"")
                                .append(java.util.Base64.getEncoder().encodeToString(BenchSpool.payload(i))).append("\"}\n");
                    }
                    PlainHttp.Answer answer = connections[c].post("/items/batch", "application/x-ndjson",
                            body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    if (answer.status() != 201) {
                        throw new AssertionError("POST /items/batch " + b + " answered " + answer.status() + ": "
                                + answer.body());
                    }
                }
            });
            return (double) batches * size / seconds;
        } finally {
            for (PlainHttp connection : connections) {
                connection.close();
            }
        }
    }
}
