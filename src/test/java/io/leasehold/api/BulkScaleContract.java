package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.ItemState;
import io.leasehold.testing.Await;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.leasehold.testing.DrivenClock;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bulk retry and the retention purge at 100,000 settled items, with one claim held all along: every
 * item moves, retention keeps to its slice per housekeeping tick, and meanwhile the claim's renewals
 * keep ticking and the service stays ready. Prints time, peak heap and the renewals' figures. Seeds the
 * items straight into the backend (through the API it would take minutes); heavy, so tagged like the
 * benchmarks and left out of the default suite: {@code ./mvnw -B test -Dtest='*BulkScaleBenchmark'
 * -DexcludedGroups=none}.
 */
abstract class BulkScaleContract extends BackendContract {

    static final int N = 100_000;
    /** Retention's slice: at most this many items of one state per housekeeping tick (app/Retention). */
    static final int PER_TICK = 10_000;

    /** The bulk call runs for as long as its 100,000 moves take: past RestAssured's 30 s under a loaded machine. */
    private static final RestAssuredConfig PATIENT = RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
            .setParam("http.socket.timeout", 600_000).setParam("http.connection.timeout", 10_000));

    @Inject
    DrivenClock clock;
    @Inject
    HoldingHandler holding;

    private final ExecutorService worker = Executors.newSingleThreadExecutor();

    /** Puts each of {@code ids} into the backend as an item settled in {@code state} at {@code at}. */
    abstract void seed(ItemState state, List<String> ids, Instant at) throws Exception;

    /** How many items the backend holds in {@code state}, as the service's counts show them now. */
    abstract long count(ItemState state) throws Exception;

    abstract String backend();

    @AfterEach
    void letGo() {
        holding.release();
        worker.shutdownNow();
    }

    private static List<String> ids(String prefix, int n) {
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(prefix + "-" + i);
        }
        return ids;
    }

    private void awaitCount(ItemState state, long n) {
        Await.until(state.label() + ": " + n + " items", Duration.ofMinutes(3), () -> {
            try {
                return count(state) == n;
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** What one heavy call took, and what went on beside it. */
    record Figures(long millis, long heapBaseMb, long heapPeakMb, long heapAfterMb, long renewTicks, long renewMaxMs,
            long renewals, long readyChecks) {
        @Override
        public String toString() {
            return millis + " ms, heap " + heapBaseMb + " MB before, peak " + heapPeakMb + " MB (+"
                    + (heapPeakMb - heapBaseMb) + " MB, garbage included), " + heapAfterMb + " MB after a GC; beside it " + renewTicks + " renewal ticks (slowest "
                    + renewMaxMs + " ms, " + renewals + " renewals counted), /q/health/ready UP " + readyChecks
                    + " times";
        }
    }

    /**
     * Runs {@code call} on a thread of its own while this one fires renewal ticks (time passing 1 ms each)
     * and asks for readiness, samples heap use every 10 ms; the held claim must be renewed at every tick.
     */
    private <T> Figures measure(Callable<T> call, List<T> result) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long base = memory.getHeapMemoryUsage().getUsed();
        AtomicLong peak = new AtomicLong(base);
        double renewalsBefore = Scrape.now().sample("leasehold_renewals_total", "");
        long began = System.nanoTime();
        Future<T> running = worker.submit(call);
        long ticks = 0;
        long slowest = 0;
        long ready = 0;
        while (!running.isDone()) {
            long t = System.nanoTime();
            clock.pass(Duration.ofMillis(1));
            clock.tick("leasehold-renew");
            slowest = Math.max(slowest, System.nanoTime() - t);
            ticks++;
            if (ticks % 20 == 0) {
                try {
                    clock.tick("leasehold-lease");
                } catch (IllegalStateException noBus) {
                    // no controller lease without a bus
                }
                given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
                ready++;
            }
            peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
            try {
                running.get(10, TimeUnit.MILLISECONDS); // the next tick in 10 ms, or at once when the call ends
            } catch (TimeoutException stillRunning) {
                // tick again
            }
        }
        long millis = (System.nanoTime() - began) / 1_000_000;
        result.add(running.get());
        long renewals = Math.round(Scrape.now().sample("leasehold_renewals_total", "") - renewalsBefore);
        assertTrue(ticks > 0 && renewals >= ticks, "the held claim was renewed at every one of " + ticks
                + " renewal ticks: " + renewals + " renewals");
        System.gc();
        long after = memory.getHeapMemoryUsage().getUsed();
        return new Figures(millis, base >> 20, peak.get() >> 20, after >> 20, ticks, slowest / 1_000_000, renewals, ready);
    }

    @Test
    void bulkRetryAndRetentionOf100000SettledItemsKeepRenewalsTicking() throws Exception {
        given().queryParam("id", "held-" + System.nanoTime()).body("hold").when().post("/items").then().statusCode(201);
        given().queryParam("budget", "1s").when().post("/drain").then().statusCode(200).body("claimed", equalTo(1));

        long t = System.nanoTime();
        seed(ItemState.FAILED, ids("scale-failed", N), clock.now().minus(Duration.ofDays(1)));
        awaitCount(ItemState.FAILED, N);
        System.out.printf("BULK %s: seeded %d failed items in %d ms%n", backend(), N, (System.nanoTime() - t) / 1_000_000);

        List<Long> retried = new ArrayList<>();
        Figures retry = measure(() -> given().config(PATIENT).queryParam("state", "failed").when().post("/items/retry").then()
                .statusCode(200).extract().jsonPath().getLong("retried"), retried);
        assertEquals(N, retried.get(0));
        awaitCount(ItemState.PENDING, N);
        assertEquals(0, count(ItemState.FAILED));
        System.out.printf("BULK %s: POST /items/retry?state=failed of %d items: %s%n", backend(), N, retry);

        t = System.nanoTime();
        seed(ItemState.DONE, ids("scale-done", N), clock.now().minus(Duration.ofDays(8)));
        awaitCount(ItemState.DONE, N);
        System.out.printf("BULK %s: seeded %d done items in %d ms%n", backend(), N, (System.nanoTime() - t) / 1_000_000);

        List<Long> tickCounts = new ArrayList<>();
        List<Long> left = new ArrayList<>();
        Figures retention = measure(() -> {
            long n = 0;
            long before = count(ItemState.DONE);
            while (before > 0 && n < 100) {
                clock.tick("leasehold-housekeeping"); // done-max-age is 7d in the test profile
                n++;
                long now = count(ItemState.DONE);
                left.add(now);
                assertTrue(before - now <= PER_TICK, "one tick purged " + (before - now) + ", more than its slice");
                before = now;
            }
            return n;
        }, tickCounts);
        assertEquals(0, count(ItemState.DONE), "every old done item purged");
        assertEquals(N - PER_TICK, left.get(0), "the first tick purged its slice and no more");
        assertEquals(N / PER_TICK, tickCounts.get(0), "ticks needed, one slice each");
        System.out.printf("BULK %s: retention purge of %d done items over %d housekeeping ticks: %s%n", backend(), N,
                tickCounts.get(0), retention);
    }
}
