package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.testing.DrivenClock;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * POST /items/retry?state=failed[&reason=] and DELETE /items?state=done|failed[&olderThan=], and retention
 * by housekeeping (the test profile keeps done items 7 days and failed ones 30, on the driven clock): what
 * they move, what they refuse, and that racing a drain or each other they neither settle an item twice
 * nor lose one.
 */
abstract class BulkContract extends BackendContract {

    @Inject
    DrivenClock clock;

    private final ExecutorService racers = Executors.newFixedThreadPool(3);

    /** Settled items of earlier tests (the JetStream ledger is shared by its profile's classes) are purged first. */
    @BeforeEach
    void noSettledItems() {
        purge("done", null);
        purge("failed", null);
    }

    /**
     * Settles items at another wall-clock time: the clock is set there and back, and no monotonic time
     * passes, so nothing times out meanwhile (the controller lease, on the JetStream spool, would count
     * days passed without its steps as a lost lease).
     */
    private <T> T settledAt(Instant at, java.util.function.Supplier<T> settle) {
        Instant now = clock.now();
        clock.set(at);
        try {
            return settle.get();
        } finally {
            clock.set(now);
        }
    }

    @AfterEach
    void stopRacers() {
        racers.shutdownNow();
    }

    private static long purge(String state, String olderThan) {
        var request = given().queryParam("state", state);
        if (olderThan != null) {
            request = request.queryParam("olderThan", olderThan);
        }
        return request.when().delete("/items").then().statusCode(200).extract().jsonPath().getLong("purged");
    }

    private static long retryAll(String reason) {
        var request = given().queryParam("state", "failed");
        if (reason != null) {
            request = request.queryParam("reason", reason);
        }
        return request.when().post("/items/retry").then().statusCode(200).extract().jsonPath().getLong("retried");
    }

    /** {@code n} items enqueued in batches of up to 500 (one call each), their ids. */
    private static List<String> enqueue(String prefix, int n) {
        List<String> ids = new ArrayList<>();
        for (int from = 0; from < n; from += 500) {
            StringBuilder lines = new StringBuilder();
            for (int i = from; i < Math.min(n, from + 500); i++) {
                String id = SpoolFixture.uniqueId(prefix);
                ids.add(id);
                lines.append("{\"id\":\"").append(id).append("\",\"payload\":\"").append(i).append("\"}\n");
            }
            given().contentType("application/x-ndjson").body(lines.toString().getBytes(StandardCharsets.UTF_8))
                    .when().post("/items/batch").then().statusCode(201);
        }
        return ids;
    }

    private static List<String> failed(String prefix, int n) {
        List<String> ids = enqueue(prefix, n);
        for (String id : ids) {
            given().when().delete("/items/{id}", id).then().statusCode(200); // cancelled: failed, reason "cancelled"
        }
        return ids;
    }

    private static List<String> done(String prefix, int n) {
        List<String> ids = enqueue(prefix, n);
        drainAll();
        return ids;
    }

    /** Drain passes until idle; the items they settled done. */
    private static long drainAll() {
        long done = 0;
        for (int pass = 0; pass < 100; pass++) {
            Response r = given().queryParam("budget", "20s").when().post("/drain").then().statusCode(200).extract()
                    .response();
            done += r.jsonPath().getLong("done");
            if (r.jsonPath().getBoolean("idle")) {
                return done;
            }
        }
        throw new AssertionError("the drain never went idle");
    }

    /** How many of {@code ids} are in each state ("gone": in none), from one listing per state. */
    private static Map<String, Integer> states(List<String> ids) {
        Map<String, String> where = new HashMap<>();
        for (String state : List.of("pending", "claimed", "done", "failed")) {
            List<String> listed = given().queryParam("state", state).queryParam("limit", 10_000).when().get("/items")
                    .then().statusCode(200).extract().jsonPath().getList("id", String.class);
            listed.forEach(id -> where.put(id, state));
        }
        Map<String, Integer> out = new HashMap<>();
        for (String id : ids) {
            out.merge(where.getOrDefault(id, "gone"), 1, Integer::sum);
        }
        return out;
    }

    @Test
    void retryAllMovesEveryFailedItemBackToPendingAndTheyDrain() {
        List<String> ids = failed("bulk-retry", 30);
        List<String> done = done("bulk-retry-done", 3);

        assertEquals(30, retryAll(null));
        assertEquals(Map.of("pending", 30), states(ids));
        assertEquals(Map.of("done", 3), states(done), "done items are left alone");
        assertEquals(0, retryAll(null), "nothing failed any more");
        assertEquals(30, drainAll());
        assertEquals(Map.of("done", 30), states(ids));
        given().when().get("/items/{id}", ids.get(0)).then().body("state", equalTo("done"));
    }

    @Test
    void retryAllWithAReasonMovesOnlyTheItemsWhoseReasonContainsIt() {
        List<String> ids = failed("bulk-reason", 4);
        assertEquals(0, retryAll("refused by the receiver"), "no reason contains it");
        assertEquals(Map.of("failed", 4), states(ids));
        assertEquals(4, retryAll("cancel"), "every reason is \"cancelled\"");
        assertEquals(Map.of("pending", 4), states(ids));
    }

    @Test
    void retryAllAnswers400NamingStateForAnyStateButFailed() {
        List<String> ids = failed("bulk-retry-refused", 2);
        SpoolFixture.assertError(given().when().post("/items/retry").then(), 400, "state must be failed");
        for (String state : List.of("done", "pending", "claimed", "bogus", "")) {
            SpoolFixture.assertError(given().queryParam("state", state).when().post("/items/retry").then(), 400,
                    "state must be failed");
        }
        assertEquals(Map.of("failed", 2), states(ids), "nothing was moved");
    }

    @Test
    void purgeRemovesEverySettledItemOfOneStateAndTheIdsMayBeEnqueuedAgain() {
        List<String> done = done("bulk-purge", 20);
        List<String> failed = failed("bulk-purge-failed", 5);

        assertEquals(20, purge("done", null));
        assertEquals(Map.of("gone", 20), states(done));
        assertEquals(Map.of("failed", 5), states(failed), "the other state is left alone");
        assertEquals(0, purge("done", null));
        assertEquals(5, purge("failed", null));
        assertEquals(Map.of("gone", 5), states(failed));
        // Purged means unknown: the same id may be enqueued again.
        given().queryParam("id", done.get(0)).body("again").when().post("/items").then().statusCode(201);
    }

    @Test
    void purgeWithOlderThanRemovesOnlyItemsSettledLongerAgoOnTheServicesClock() {
        Instant now = clock.now();
        List<String> old = settledAt(now.minus(Duration.ofHours(2)), () -> done("bulk-old", 6));
        List<String> oldFailed = settledAt(now.minus(Duration.ofHours(2)), () -> failed("bulk-old-failed", 2));
        List<String> young = settledAt(now.minusSeconds(1), () -> done("bulk-young", 4));

        assertEquals(0, purge("done", "3h"));
        assertEquals(0, purge("done", "99999999999999d"), "further back than an instant goes: none, not a 500");
        assertEquals(6, purge("done", "90m"));
        assertEquals(Map.of("gone", 6), states(old));
        assertEquals(Map.of("done", 4), states(young));
        assertEquals(2, purge("failed", "1h"));
        assertEquals(Map.of("gone", 2), states(oldFailed));
        assertEquals(0, purge("done", "2s"));
        assertEquals(4, purge("done", "0s"), "settled before now");
    }

    @Test
    void purgeAnswers400NamingStateOrOlderThanAndRemovesNothing() {
        List<String> done = done("bulk-purge-refused", 2);
        List<String> pending = enqueue("bulk-purge-pending", 1);
        SpoolFixture.assertError(given().when().delete("/items").then(), 400, "state must be done or failed");
        for (String state : List.of("pending", "claimed", "bogus", "")) {
            SpoolFixture.assertError(given().queryParam("state", state).when().delete("/items").then(), 400,
                    "state must be done or failed");
        }
        for (String age : List.of("soon", "-5s", "5 parsecs", "")) {
            SpoolFixture.assertError(given().queryParam("state", "done").queryParam("olderThan", age).when()
                    .delete("/items").then(), 400, "olderThan must be a duration");
        }
        assertEquals(Map.of("done", 2), states(done));
        assertEquals(Map.of("pending", 1), states(pending));
    }

    @Test
    void bulkMovesAreCountedInTheMetrics() {
        double retried = Scrape.now().sampleOrZero("leasehold_items_retried_total", "");
        double purged = Scrape.now().sampleOrZero("leasehold_items_purged_total", "state=\"failed\"");
        failed("bulk-metrics", 3);
        assertEquals(3, retryAll(null));
        drainAll();
        failed("bulk-metrics-purge", 2);
        assertEquals(2, purge("failed", null));
        Scrape after = Scrape.now();
        assertEquals(retried + 3, after.sample("leasehold_items_retried_total", ""));
        assertEquals(purged + 2, after.sample("leasehold_items_purged_total", "state=\"failed\""));
    }

    /**
     * Two bulk retries and drain passes racing over 200 failed items: every item is retried by exactly one
     * call (their counts add up), settled once (the passes' done counts add up), none lost; then two purges
     * race a drain's settlements the same way: each done item purged by one of them or still there.
     */
    @Test
    void bulkCallsRacingEachOtherAndADrainNeverMoveAnItemTwiceOrLoseOne() throws Exception {
        int n = 200;
        List<String> ids = failed("bulk-race", n);

        CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> retryAll(null), racers);
        CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> retryAll("cancelled"), racers);
        CompletableFuture<Long> drained = CompletableFuture.supplyAsync(() -> {
            long done = 0;
            while (!first.isDone() || !second.isDone()) {
                done += given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).extract()
                        .jsonPath().getLong("done");
            }
            return done;
        }, racers);
        long retried = first.get(60, TimeUnit.SECONDS) + second.get(60, TimeUnit.SECONDS);
        long done = drained.get(60, TimeUnit.SECONDS) + drainAll();
        assertEquals(n, retried, "each failed item retried by exactly one call");
        assertEquals(n, done, "each retried item settled exactly once");
        assertEquals(Map.of("done", n), states(ids), "none lost");

        List<String> more = enqueue("bulk-race-late", 100);
        CompletableFuture<Long> purgeA = CompletableFuture.supplyAsync(() -> purge("done", null), racers);
        CompletableFuture<Long> purgeB = CompletableFuture.supplyAsync(() -> purge("done", null), racers);
        long lateDone = drainAll();
        long purged = purgeA.get(60, TimeUnit.SECONDS) + purgeB.get(60, TimeUnit.SECONDS);
        List<String> all = new ArrayList<>(ids);
        all.addAll(more);
        Map<String, Integer> after = states(all);
        int left = after.getOrDefault("done", 0);
        assertEquals(100, lateDone);
        assertEquals(n + 100, purged + left, "every done item purged once or still done: " + after);
        assertEquals(n + 100, left + after.getOrDefault("gone", 0), "nothing else: " + after);
        assertEquals(left, purge("done", null));
    }

    @Test
    void retentionPurgesSettledItemsPastTheirMaxAgeAtHousekeeping() {
        Instant now = clock.now();
        // The test profile keeps done items 7 days and failed ones 30.
        List<String> oldDone = settledAt(now.minus(Duration.ofDays(8)), () -> done("keep-old", 3));
        List<String> youngDone = settledAt(now.minus(Duration.ofDays(6)), () -> done("keep-young", 2));
        List<String> oldFailed = settledAt(now.minus(Duration.ofDays(31)), () -> failed("keep-old-failed", 2));
        List<String> youngFailed = settledAt(now.minus(Duration.ofDays(8)), () -> failed("keep-young-failed", 1));

        clock.tick("leasehold-housekeeping");
        assertEquals(Map.of("gone", 3), states(oldDone));
        assertEquals(Map.of("done", 2), states(youngDone));
        assertEquals(Map.of("gone", 2), states(oldFailed));
        assertEquals(Map.of("failed", 1), states(youngFailed));
    }
}
