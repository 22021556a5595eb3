package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Clients of one key making the same call at the same moment, each on its own thread: all wait on
 * one start latch, so the calls really overlap instead of running one after the other.
 */
final class Rivals implements AutoCloseable {

    @FunctionalInterface
    interface RivalCall {
        long call(LeaseStore store, String name) throws LeaseStoreException;
    }

    private final List<LeaseStore> clients;
    private final ExecutorService threads;

    Rivals(List<LeaseStore> clients) {
        this.clients = clients;
        this.threads = Executors.newFixedThreadPool(clients.size());
    }

    /** Each rival's answer, in order: the revision it wrote at, or the kind of its failure. */
    List<Object> race(RivalCall call) throws Exception {
        CountDownLatch ready = new CountDownLatch(clients.size());
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Object>> futures = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            LeaseStore client = clients.get(i);
            String name = name(i);
            futures.add(threads.submit(() -> {
                ready.countDown();
                start.await();
                try {
                    return call.call(client, name);
                } catch (LeaseStoreException e) {
                    return e.kind();
                }
            }));
        }
        assertTrue(ready.await(10, TimeUnit.SECONDS), "every rival thread started");
        start.countDown();
        List<Object> answers = new ArrayList<>();
        for (Future<Object> f : futures) {
            answers.add(f.get(30, TimeUnit.SECONDS));
        }
        return answers;
    }

    static String name(int rival) {
        return "rival-" + rival;
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
