package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.not;

import io.leasehold.testing.DrivenClock;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP API's answers, one suite for every spool backend: each backend's test runs these against the
 * packaged-in service on its spool (a directory, a JetStream ledger on a real nats-server), with the
 * log handler, so a drain pass settles every item it claims in done. GET /items/{id} in each state an
 * item reaches over HTTP is here too (claimed ones, and listings in age order, need planted files:
 * {@link ItemsQueryTest}).
 */
abstract class ItemsApiContract extends BackendContract {

    @Inject
    DrivenClock clock;
    @Inject
    io.leasehold.spool.AttemptOutputs outputs;

    private static ValidatableResponse enqueue(String id, String payload) {
        return given().queryParam("id", id).body(payload).when().post("/items").then();
    }

    private static ValidatableResponse item(String id) {
        return given().when().get("/items/{id}", id).then();
    }

    @Test
    void anEnqueueIs201ThenPendingAndASecondOneOfTheIdIs409() {
        String id = SpoolFixture.uniqueId("api");
        enqueue(id, "one").statusCode(201).body("id", equalTo(id)).body("state", equalTo("pending"));
        enqueue(id, "two").statusCode(409);
        item(id).statusCode(200).body("state", equalTo("pending"));
        item(SpoolFixture.uniqueId("nobody")).statusCode(404);
        enqueue("bad~id", "x").statusCode(400);
    }

    /** GET /items/{id}/payload gives the bytes enqueued, in every state the item passes through, and 404 after none. */
    @Test
    void thePayloadIsReadInEveryStateByteForByte() {
        byte[] bytes = {0, 1, 2, (byte) 0xfe, (byte) 0xff, '\n'};
        String id = SpoolFixture.uniqueId("payload");
        given().queryParam("id", id).body(bytes).when().post("/items").then().statusCode(201);
        org.junit.jupiter.api.Assertions.assertArrayEquals(bytes, given().when().get("/items/{id}/payload", id).then()
                .statusCode(200).contentType("application/octet-stream").extract().asByteArray(), "pending");
        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200);
        org.junit.jupiter.api.Assertions.assertArrayEquals(bytes, given().when().get("/items/{id}/payload", id).then()
                .statusCode(200).extract().asByteArray(), "done");
        SpoolFixture.assertError(given().when().get("/items/{id}/payload", "no-such-" + id).then(), 404, "no item");
        SpoolFixture.assertError(given().when().get("/items/{id}/payload", ".bad").then(), 400, "");
    }

    /** GET /items/{id}/attempts/{n}/output answers what the backend keeps, and says which of its parts is missing. */
    @Test
    void anAttemptsOutputIsReadAsKeptAnd404NamesWhatIsMissing() throws IOException {
        String id = SpoolFixture.uniqueId("output");
        enqueue(id, "o").statusCode(201);
        outputs.keep(id, io.leasehold.spool.AttemptOutput.of(2, "exec", Instant.parse("2026-12-07T10:00:00Z"),
                Instant.parse("2026-12-07T10:00:01Z"), new io.leasehold.core.HandlerOutput(3, java.util.List.of(
                        new io.leasehold.core.HandlerOutput.Part("stderr", "no such order\n", 14, "tail")))));
        given().when().get("/items/{id}/attempts/{n}/output", id, 2).then().statusCode(200)
                .body("attempt", equalTo(2)).body("handler", equalTo("exec")).body("status", equalTo(3))
                .body("startedAt", equalTo("2026-12-07T10:00:00Z")).body("endedAt", equalTo("2026-12-07T10:00:01Z"))
                .body("parts[0].name", equalTo("stderr")).body("parts[0].text", equalTo("no such order\n"))
                .body("parts[0].bytes", equalTo(14)).body("parts[0].kept", equalTo("tail"));
        SpoolFixture.assertError(given().when().get("/items/{id}/attempts/1/output", id).then(), 404,
                "no output is kept for attempt 1 of item '" + id + "'");
        SpoolFixture.assertError(given().when().get("/items/{id}/attempts/2/output", "no-such-" + id).then(), 404,
                "no item");
        for (String bad : new String[] {"0", "-1", "x", "1234567890"}) {
            SpoolFixture.assertError(given().when().get("/items/{id}/attempts/{n}/output", id, bad).then(), 400,
                    "an attempt is a whole number from 1");
        }
    }

    @Test
    void aDrainPassSettlesWhatWasEnqueuedAndTheCountsShowIt() {
        String a = SpoolFixture.uniqueId("api-drain");
        String b = SpoolFixture.uniqueId("api-drain");
        enqueue(a, "a").statusCode(201);
        enqueue(b, "b").statusCode(201);
        given().queryParam("budget", "20s").when().post("/drain").then().statusCode(200)
                .body("claimed", greaterThanOrEqualTo(2)).body("failed", equalTo(0)).body("idle", equalTo(true));
        item(a).body("state", equalTo("done"));
        item(b).body("state", equalTo("done"));
        given().when().get("/spool").then().statusCode(200).body("done", greaterThanOrEqualTo(2))
                .body("pending", equalTo(0));
    }

    @Test
    void aBatchLandsWholeOrIsRefusedWhole() {
        String a = SpoolFixture.uniqueId("api-batch");
        String b = SpoolFixture.uniqueId("api-batch");
        String body = "{\"id\":\"" + a + "\",\"payload\":\"a\"}\n{\"id\":\"" + b + "\",\"payloadBase64\":\"Yg==\"}\n";
        given().contentType("application/x-ndjson").body(body.getBytes()).when().post("/items/batch").then()
                .statusCode(201).body("items.id", org.hamcrest.Matchers.contains(a, b));
        item(a).body("state", equalTo("pending"));
        String c = SpoolFixture.uniqueId("api-batch");
        String again = "{\"id\":\"" + c + "\",\"payload\":\"c\"}\n{\"id\":\"" + a + "\",\"payload\":\"dup\"}\n";
        given().contentType("application/x-ndjson").body(again.getBytes()).when().post("/items/batch").then()
                .statusCode(409);
        item(c).statusCode(404);
    }

    @Test
    void aCancelledItemFailsAsCancelledAndARetryBringsItBack() {
        String id = SpoolFixture.uniqueId("api-cancel");
        enqueue(id, "c").statusCode(201);
        given().when().delete("/items/{id}", id).then().statusCode(200).body("state", equalTo("failed"))
                .body("reason", equalTo("cancelled"));
        given().when().delete("/items/{id}", id).then().statusCode(409);
        given().when().post("/items/{id}/retry", id).then().statusCode(200).body("state", equalTo("pending"));
        given().when().post("/items/{id}/retry", id).then().statusCode(409);
        given().when().post("/drain").then().statusCode(200);
        item(id).body("state", equalTo("done"));
    }
    @Test
    void pendingShowsOnlyIdAndState() {
        String id = SpoolFixture.uniqueId("look-pending");
        given().queryParam("id", id).body("p").when().post("/items").then().statusCode(201);

        given().when().get("/items/{id}", id).then().statusCode(200)
                .body("id", equalTo(id)).body("state", equalTo("pending"))
                .body("$", not(hasKey("attempt"))).body("$", not(hasKey("generation")))
                .body("$", not(hasKey("leaseExpiresAt"))).body("$", not(hasKey("reason")));
    }

    @Test
    void doneAfterADrain() {
        String id = SpoolFixture.uniqueId("look-done");
        given().queryParam("id", id).body("p").when().post("/items").then().statusCode(201);
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));

        given().when().get("/items/{id}", id).then().statusCode(200)
                .body("state", equalTo("done")).body("$", not(hasKey("reason")));
    }

    @Test
    void failedShowsItsReason() {
        String id = SpoolFixture.uniqueId("look-failed");
        given().queryParam("id", id).body("p").when().post("/items").then().statusCode(201);
        given().when().delete("/items/{id}", id).then().statusCode(200);

        given().when().get("/items/{id}", id).then().statusCode(200)
                .body("state", equalTo("failed")).body("reason", equalTo("cancelled"));
    }

    @Test
    void unknownIdIs404AndABadIdIs400() {
        SpoolFixture.assertError(given().when().get("/items/{id}", SpoolFixture.uniqueId("nobody")).then(),
                404, "no item");
        SpoolFixture.assertError(given().when().get("/items/{id}", "a~b").then(), 400, "invalid item id");
        SpoolFixture.assertError(given().when().get("/items/{id}", ".hidden").then(), 400, "invalid item id");
        SpoolFixture.assertError(given().when().get("/items/{id}", "c".repeat(129)).then(), 400, "invalid item id");
    }

    /**
     * A delay parks the item (201 "scheduled" with its runAt, durably); GET and ?state=scheduled show it,
     * its id is known, a drain pass before its runAt leaves it, one after runs it as its first attempt,
     * and its answer then has its times and the attempt in its history.
     */
    @Test
    void aDelayedItemIsScheduledUntilItsRunAtAndThenRunsOnce() {
        String id = SpoolFixture.uniqueId("api-sched");
        Instant runAt = clock.now().plus(Duration.ofMinutes(2));
        given().queryParam("id", id).queryParam("delay", "PT2M").body("s").when().post("/items").then()
                .statusCode(201).body("state", equalTo("scheduled")).body("runAt", equalTo(runAt.toString()));
        item(id).statusCode(200).body("state", equalTo("scheduled")).body("runAt", equalTo(runAt.toString()))
                .body("enqueuedAt", equalTo(clock.now().toString())).body("$", not(hasKey("attempt")))
                .body("$", not(hasKey("holder"))).body("$", not(hasKey("settledAt")));
        given().queryParam("state", "scheduled").when().get("/items").then().statusCode(200)
                .body("id", hasItem(id));
        given().queryParam("state", "claimed").when().get("/items").then().statusCode(200)
                .body("id", not(hasItem(id))); // nobody holds it: listed as scheduled only
        enqueue(id, "again").statusCode(409);

        given().when().post("/drain").then().statusCode(200).body("claimed", equalTo(0)).body("tookOver", equalTo(0));
        clock.advance(Duration.ofMinutes(2));
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        item(id).statusCode(200).body("state", equalTo("done")).body("settledAt", equalTo(clock.now().toString()))
                .body("history", hasSize(1)).body("history[0].attempt", equalTo(1))
                .body("history[0].outcome", equalTo("done")).body("history[0].epoch", notNullValue())
                .body("history[0].holder", notNullValue());
    }

    @Test
    void aNotBeforeAheadSchedulesOneInThePastRunsNowAndAScheduledItemIsCancelled() {
        String later = SpoolFixture.uniqueId("api-later");
        Instant at = clock.now().plus(Duration.ofHours(3));
        String withOffset = at.atOffset(java.time.ZoneOffset.ofHours(2)).toString(); // e.g. ...T20:00+02:00
        given().queryParam("id", later).queryParam("notBefore", withOffset).body("l").when()
                .post("/items").then().statusCode(201).body("state", equalTo("scheduled"))
                .body("runAt", equalTo(at.toString()));
        given().when().delete("/items/{id}", later).then().statusCode(200).body("state", equalTo("failed"))
                .body("reason", equalTo("cancelled"));
        given().queryParam("state", "scheduled").when().get("/items").then().statusCode(200)
                .body("id", not(hasItem(later)));
        String now = SpoolFixture.uniqueId("api-past");
        given().queryParam("id", now).queryParam("notBefore", at.minus(Duration.ofDays(2)).toString()).body("n")
                .when().post("/items").then().statusCode(201).body("state", equalTo("pending"))
                .body("$", not(hasKey("runAt")));
        given().queryParam("state", "retrying").when().get("/items").then().statusCode(200);
    }

    /** Every bad schedule is a 400 naming what is wrong, and nothing is written: the id stays unknown. */
    @ParameterizedTest
    @ValueSource(strings = {"delay=PT1M&notBefore=2030-01-01T00:00:00Z|not both", "delay=-5s|delay",
        "delay=soon|delay", "delay=|delay", "notBefore=tomorrow|notBefore", "notBefore=|notBefore",
        "notBefore=2026-11-30|notBefore", "notBefore=+10000-01-01T00:00:00Z|notBefore",
        "delay=PT999999999H|delay"})
    void aBadScheduleIs400AndWritesNothing(String testCase) throws IOException {
        String[] parts = testCase.split("\\|");
        String id = SpoolFixture.uniqueId("api-bad-sched");
        SpoolFixture.assertError(given().body("x").when().post("/items?id=" + id + "&" + parts[0]).then(), 400,
                parts[1]);
        item(id).statusCode(404);
        org.junit.jupiter.api.Assertions.assertFalse(spool.isReserved(id), "nothing written for " + id);
    }

    @Test
    void aBatchTakesNoScheduleAndAnItemAnswersItsTimes() {
        String id = SpoolFixture.uniqueId("api-batch-sched");
        SpoolFixture.assertError(given().contentType("application/x-ndjson").queryParam("delay", "1m")
                .body(("{\"id\":\"" + id + "\",\"payload\":\"b\"}\n").getBytes()).when().post("/items/batch").then(),
                400, "notBefore or delay");
        item(id).statusCode(404);

        String timed = SpoolFixture.uniqueId("api-times");
        String enqueuedAt = clock.now().toString();
        enqueue(timed, "t").statusCode(201);
        item(timed).body("enqueuedAt", equalTo(enqueuedAt)).body("$", not(hasKey("settledAt")))
                .body("history", hasSize(0));
        clock.advance(Duration.ofSeconds(3));
        given().when().post("/drain").then().statusCode(200);
        item(timed).body("state", equalTo("done")).body("enqueuedAt", equalTo(enqueuedAt))
                .body("settledAt", equalTo(clock.now().toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"state=waiting", "state=PENDING", "limit=0", "limit=-1", "limit=10001", "limit=many",
        "limit=1.5"})
    void badStateOrLimitIs400(String query) {
        SpoolFixture.assertError(given().when().get("/items?" + query).then(), 400, query.split("=")[0]);
    }
}
