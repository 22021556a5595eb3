package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.SpoolFolder;
import io.leasehold.spool.SpoolLayout;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** DELETE /items/{id} (cancel a pending item) and POST /items/{id}/retry (a failed one back to pending). */
@QuarkusTest
class CancelRetryTest {

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    private static void enqueue(String id, String payload) {
        given().queryParam("id", id).body(payload).when().post("/items").then().statusCode(201);
    }

    @Test
    void cancelMovesAPendingItemToFailedWithReasonCancelled() throws IOException {
        String id = SpoolFixture.uniqueId("cancel");
        enqueue(id, "keep me");

        given().when().delete("/items/{id}", id).then().statusCode(200)
                .body("id", equalTo(id)).body("state", equalTo("failed")).body("reason", equalTo("cancelled"));

        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING);
        assertEquals("keep me", Files.readString(layout.file(SpoolFolder.FAILED, id)), "the payload is kept");
        // A drain afterwards has nothing to do with it.
        given().when().post("/drain").then().statusCode(200).body("claimed", equalTo(0));
        given().when().get("/items/{id}", id).then().body("state", equalTo("failed"));
    }

    @Test
    void cancelOfAnItemNotPendingIs409AndChangesNothing() throws IOException {
        String done = SpoolFixture.uniqueId("cancel-done");
        enqueue(done, "d");
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        SpoolFixture.assertError(given().when().delete("/items/{id}", done).then(), 409, "is done, not pending");
        assertEquals(List.of(done), SpoolFixture.names(layout, SpoolFolder.DONE));

        String failed = SpoolFixture.uniqueId("cancel-twice");
        enqueue(failed, "f");
        given().when().delete("/items/{id}", failed).then().statusCode(200);
        SpoolFixture.assertError(given().when().delete("/items/{id}", failed).then(), 409, "is failed, not pending");

        String held = SpoolFixture.uniqueId("cancel-claimed");
        ClaimName claim = new ClaimName(held, Generation.parse("1-zz9").orElseThrow(), clock.now());
        Files.writeString(layout.claimFile(claim), "c");
        SpoolFixture.assertError(given().when().delete("/items/{id}", held).then(), 409, "is claimed, not pending");
        assertEquals(List.of(claim.fileName()), SpoolFixture.names(layout, SpoolFolder.CLAIMED));
    }

    @Test
    void cancelOfAnUnknownItemIs404AndOfABadIdIs400() {
        SpoolFixture.assertError(given().when().delete("/items/{id}", SpoolFixture.uniqueId("ghost")).then(),
                404, "no item");
        SpoolFixture.assertError(given().when().delete("/items/{id}", "a~b").then(), 400, "invalid item id");
        SpoolFixture.assertEmpty(layout, SpoolFolder.FAILED, SpoolFolder.REASONS);
    }

    @Test
    void retryMovesAFailedItemBackToPendingAndItDrains() throws IOException {
        String id = SpoolFixture.uniqueId("retry");
        enqueue(id, "again");
        given().when().delete("/items/{id}", id).then().statusCode(200);

        given().when().post("/items/{id}/retry", id).then().statusCode(200)
                .body("id", equalTo(id)).body("state", equalTo("pending")).body("$", not(hasKey("reason")));
        assertEquals("again", Files.readString(layout.file(SpoolFolder.PENDING, id)));
        SpoolFixture.assertEmpty(layout, SpoolFolder.FAILED);

        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));
    }

    @Test
    void retryOfAnItemNotFailedIs409AndOfAnUnknownOneIs404() {
        String pending = SpoolFixture.uniqueId("retry-pending");
        enqueue(pending, "p");
        SpoolFixture.assertError(given().when().post("/items/{id}/retry", pending).then(), 409,
                "is pending, not failed");
        assertEquals(List.of(pending), SpoolFixture.names(layout, SpoolFolder.PENDING));

        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        SpoolFixture.assertError(given().when().post("/items/{id}/retry", pending).then(), 409,
                "is done, not failed");

        SpoolFixture.assertError(given().when().post("/items/{id}/retry", SpoolFixture.uniqueId("ghost")).then(),
                404, "no item");
        SpoolFixture.assertError(given().when().post("/items/{id}/retry", ".dot").then(), 400, "invalid item id");
    }
}
