package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import io.restassured.response.ValidatableResponse;
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

    @ParameterizedTest
    @ValueSource(strings = {"state=waiting", "state=PENDING", "limit=0", "limit=-1", "limit=10001", "limit=many",
        "limit=1.5"})
    void badStateOrLimitIs400(String query) {
        SpoolFixture.assertError(given().when().get("/items?" + query).then(), 400, query.split("=")[0]);
    }
}
