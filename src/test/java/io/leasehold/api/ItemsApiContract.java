package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

/**
 * The HTTP API's answers, one suite for every spool backend: each backend's test runs these against the
 * packaged-in service on its spool (a directory, a JetStream ledger on a real nats-server), with the
 * log handler, so a drain pass settles every item it claims in done.
 */
abstract class ItemsApiContract {

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
}
