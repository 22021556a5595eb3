package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.spool.ItemState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DELETE /items/{id} (cancel a pending item) and POST /items/{id}/retry (a failed one back to pending). */
abstract class CancelRetryContract extends BackendContract {

    private static void enqueue(String id, String payload) {
        given().queryParam("id", id).body(payload).when().post("/items").then().statusCode(201);
    }

    private String text(ItemState state, String id) throws IOException {
        return new String(spool.payloadIn(state, id), StandardCharsets.UTF_8);
    }

    @Test
    void cancelMovesAPendingItemToFailedWithReasonCancelled() throws IOException {
        String id = SpoolFixture.uniqueId("cancel");
        enqueue(id, "keep me");

        given().when().delete("/items/{id}", id).then().statusCode(200)
                .body("id", equalTo(id)).body("state", equalTo("failed")).body("reason", equalTo("cancelled"));

        assertEquals("keep me", text(ItemState.FAILED, id), "the payload is kept, and the item is no longer pending");
        // A drain afterwards has nothing to do with it.
        given().when().post("/drain").then().statusCode(200).body("claimed", equalTo(0));
        given().when().get("/items/{id}", id).then().body("state", equalTo("failed"));
    }

    @Test
    void cancelOfADoneOrFailedItemIs409AndChangesNothing() throws IOException {
        String done = SpoolFixture.uniqueId("cancel-done");
        enqueue(done, "d");
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().when().delete("/items/{id}", done).then(), 409, "is done, not pending");
        assertEquals(before, spool.holdings());
        assertEquals("d", text(ItemState.DONE, done));

        String failed = SpoolFixture.uniqueId("cancel-twice");
        enqueue(failed, "f");
        given().when().delete("/items/{id}", failed).then().statusCode(200);
        before = spool.holdings();
        SpoolFixture.assertError(given().when().delete("/items/{id}", failed).then(), 409, "is failed, not pending");
        assertEquals(before, spool.holdings());
    }

    @Test
    void cancelOfAnUnknownItemIs404AndOfABadIdIs400() throws IOException {
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().when().delete("/items/{id}", SpoolFixture.uniqueId("ghost")).then(),
                404, "no item");
        SpoolFixture.assertError(given().when().delete("/items/{id}", "a~b").then(), 400, "invalid item id");
        assertEquals(before, spool.holdings());
    }

    @Test
    void retryMovesAFailedItemBackToPendingAndItDrains() throws IOException {
        String id = SpoolFixture.uniqueId("retry");
        enqueue(id, "again");
        given().when().delete("/items/{id}", id).then().statusCode(200);

        given().when().post("/items/{id}/retry", id).then().statusCode(200)
                .body("id", equalTo(id)).body("state", equalTo("pending")).body("$", not(hasKey("reason")));
        assertEquals("again", text(ItemState.PENDING, id), "pending again, and no longer failed");

        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));
    }

    @Test
    void retryOfAnItemNotFailedIs409AndOfAnUnknownOneIs404() throws IOException {
        String pending = SpoolFixture.uniqueId("retry-pending");
        enqueue(pending, "p");
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().when().post("/items/{id}/retry", pending).then(), 409,
                "is pending, not failed");
        assertEquals(before, spool.holdings());
        assertEquals("p", text(ItemState.PENDING, pending));

        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        SpoolFixture.assertError(given().when().post("/items/{id}/retry", pending).then(), 409,
                "is done, not failed");

        SpoolFixture.assertError(given().when().post("/items/{id}/retry", SpoolFixture.uniqueId("ghost")).then(),
                404, "no item");
        SpoolFixture.assertError(given().when().post("/items/{id}/retry", ".dot").then(), 400, "invalid item id");
    }
}
