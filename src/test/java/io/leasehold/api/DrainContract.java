package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.ItemState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import io.leasehold.testing.DrivenClock;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * POST /drain's answers, GET /spool's counts after it and the meters and gauges that follow them. Counts of
 * settled items are deltas: the JetStream ledger keeps those of earlier tests (the directory is emptied).
 */
abstract class DrainContract extends BackendContract {

    @Inject
    DrivenClock clock;

    private static int doneCount() {
        return given().when().get("/spool").then().statusCode(200).extract().path("done");
    }

    @Test
    void drainWorksOffPendingItemsAndReportsCounts() throws IOException {
        String first = SpoolFixture.uniqueId("drain");
        String second = SpoolFixture.uniqueId("drain");
        given().queryParam("id", first).body("1").when().post("/items").then().statusCode(201);
        given().queryParam("id", second).body("2").when().post("/items").then().statusCode(201);
        int doneBefore = doneCount();

        given().queryParam("budget", "2s").when().post("/drain").then().statusCode(200)
                .body("claimed", equalTo(2)).body("done", equalTo(2)).body("failed", equalTo(0))
                .body("retried", equalTo(0)).body("lost", equalTo(0)).body("tookOver", equalTo(0))
                .body("idle", equalTo(true)).body("budgetMs", equalTo(2000));

        assertEquals("1", new String(spool.payloadIn(ItemState.DONE, first), StandardCharsets.UTF_8));
        assertEquals("2", new String(spool.payloadIn(ItemState.DONE, second), StandardCharsets.UTF_8));
        spool.assertNoStaging();
        given().when().get("/spool").then().body("pending", equalTo(0)).body("claimed", equalTo(0))
                .body("done", equalTo(doneBefore + 2));
        // Nothing left: a second pass claims nothing and is idle at once.
        given().when().post("/drain").then().statusCode(200).body("claimed", equalTo(0)).body("idle", equalTo(true))
                .body("budgetMs", equalTo(30_000));
    }

    /** The fleet's pause: kept in the backend's store, obeyed by drain passes, shown by GET /drain, readiness and a gauge. */
    @Test
    void aPauseStopsDrainPassesUntilAResumeAndIsShownEverywhere() {
        given().when().post("/drain/resume").then().statusCode(200).body("paused", equalTo(false));
        String id = SpoolFixture.uniqueId("paused");
        given().queryParam("id", id).body("p").when().post("/items").then().statusCode(201);

        String since = given().when().post("/drain/pause").then().statusCode(200).body("paused", equalTo(true))
                .body("by", startsWith("api on ")).extract().path("since");
        given().when().get("/drain").then().statusCode(200).body("paused", equalTo(true)).body("since", equalTo(since));
        given().when().post("/drain/pause").then().statusCode(200).body("since", equalTo(since)); // changes nothing
        given().queryParam("budget", "10s").when().post("/drain").then().statusCode(200)
                .body("paused", equalTo(true)).body("claimed", equalTo(0)).body("idle", equalTo(false));
        given().when().get("/items/{id}", id).then().body("state", equalTo("pending"));
        given().when().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'drain' }.data.paused", equalTo(true));
        assertEquals(1.0, Scrape.now().sample("leasehold_drain_paused", ""));

        clock.advance(Duration.ofSeconds(1));
        given().when().post("/drain/resume").then().statusCode(200).body("paused", equalTo(false))
                .body("since", not(equalTo(since)));
        given().when().get("/drain").then().body("paused", equalTo(false));
        given().queryParam("budget", "10s").when().post("/drain").then().statusCode(200)
                .body("paused", equalTo(false)).body("done", equalTo(1));
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));
        assertEquals(0.0, Scrape.now().sample("leasehold_drain_paused", ""));
    }

    @AfterEach
    void resumed() {
        given().when().post("/drain/resume").then().statusCode(200); // the JetStream ledger outlives a test
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "0s", "-1s", "16m", "2x"})
    void badBudgetIs400(String budget) {
        SpoolFixture.assertError(given().queryParam("budget", budget).when().post("/drain").then(), 400, "budget");
    }

    @Test
    void drainMetersCountClaimsAttemptsAndHandlerTime() {
        Scrape before = Scrape.now();
        double claims = before.sampleOrZero("leasehold_claims_total", "");
        double doneAttempts = before.sampleOrZero("leasehold_attempts_total", "outcome=\"done\"");
        double timed = before.sampleOrZero("leasehold_handler_duration_seconds_count", "outcome=\"done\"");

        for (int i = 0; i < 3; i++) {
            given().queryParam("id", SpoolFixture.uniqueId("metered")).body("m").when().post("/items").then()
                    .statusCode(201);
        }
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(3));

        Scrape after = Scrape.now();
        assertEquals(claims + 3, after.sample("leasehold_claims_total", ""), after.text);
        assertEquals(doneAttempts + 3, after.sample("leasehold_attempts_total", "outcome=\"done\""), after.text);
        assertEquals(timed + 3, after.sample("leasehold_handler_duration_seconds_count", "outcome=\"done\""),
                after.text);
        assertTrue(after.text.contains("# TYPE leasehold_handler_duration_seconds summary")
                || after.text.contains("# TYPE leasehold_handler_duration_seconds histogram"), "handler time is a timer");
    }

    /** The gauges follow this instance's own moves at once, with no recount (others' moves: HealthMetricsTest). */
    @Test
    void itemGaugesFollowOwnEnqueuesAndSettlementsAtOnce() {
        double done = Scrape.now().sample("leasehold_items", "state=\"done\"");
        given().queryParam("id", SpoolFixture.uniqueId("gauged")).body("1").when().post("/items").then().statusCode(201);
        given().queryParam("id", SpoolFixture.uniqueId("gauged")).body("2").when().post("/items").then().statusCode(201);

        Scrape enqueued = Scrape.now();
        assertEquals(2.0, enqueued.sample("leasehold_items", "state=\"pending\""), enqueued.text);
        assertEquals(0.0, enqueued.sample("leasehold_items", "state=\"claimed\""), enqueued.text);
        assertEquals(done, enqueued.sample("leasehold_items", "state=\"done\""), enqueued.text);

        given().when().post("/drain").then().statusCode(200).body("done", equalTo(2));
        Scrape drained = Scrape.now();
        assertEquals(0.0, drained.sample("leasehold_items", "state=\"pending\""), drained.text);
        assertEquals(done + 2, drained.sample("leasehold_items", "state=\"done\""), drained.text);
        assertEquals(0.0, drained.sample("leasehold_pending_oldest_age_seconds", ""), drained.text);
    }
}
