package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** POST /items: what lands pending, and what is refused with nothing written. */
abstract class EnqueueContract extends BackendContract {

    private String pendingText(String id) throws IOException {
        return new String(spool.payloadIn(ItemState.PENDING, id), StandardCharsets.UTF_8);
    }

    @Test
    void payloadLandsInPendingWithItsExactBytes() throws IOException {
        String id = SpoolFixture.uniqueId("exact");
        byte[] payload = new byte[300];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 7); // every byte value class, including 0 and high bytes
        }

        given().queryParam("id", id).contentType("application/octet-stream").body(payload)
                .when().post("/items")
                .then().statusCode(201)
                .header("Location", endsWith("/items/" + id))
                .body("id", equalTo(id))
                .body("state", equalTo("pending"));

        assertArrayEquals(payload, spool.payloadIn(ItemState.PENDING, id));
        spool.assertNoStaging();
    }

    @Test
    void emptyBodyIsAnEmptyItem() throws IOException {
        String id = SpoolFixture.uniqueId("empty");
        given().queryParam("id", id).when().post("/items").then().statusCode(201).body("id", equalTo(id));
        assertEquals(0, spool.payloadIn(ItemState.PENDING, id).length);
    }

    @Test
    void withoutAnIdAValidOneIsGenerated() throws IOException {
        String first = given().body("one").when().post("/items").then().statusCode(201)
                .body("state", equalTo("pending")).extract().path("id");
        String second = given().body("two").when().post("/items").then().statusCode(201).extract().path("id");

        assertTrue(ItemId.isValid(first), "generated id " + first + " is a valid id");
        assertTrue(!first.equals(second), "two posts get two ids");
        assertEquals("one", pendingText(first));
        assertEquals("two", pendingText(second));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a~b", "../x", ".hidden", "a/b", "-dash-first", "sp ace", "tab\tid", "é"})
    void invalidIdsAreRefusedWithNothingWritten(String id) throws IOException {
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().queryParam("id", id).body("payload").when().post("/items").then(),
                400, "invalid item id");
        assertEquals(before, spool.holdings());
    }

    /**
     * /items/batch and /items/retry are the paths of other calls, not an item's address (GET /items/batch is
     * answered by the batch call's resource: 405), so those two ids are refused.
     */
    @ParameterizedTest
    @ValueSource(strings = {"batch", "retry"})
    void theNamesOfCallsUnderItemsAreRefusedAsIdsWithNothingWritten(String id) throws IOException {
        if (id.equals("batch")) {
            given().when().get("/items/{id}", id).then().statusCode(405); // why: the batch call's path wins
        }
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().queryParam("id", id).body("payload").when().post("/items").then(),
                400, "is the name of the call /items/" + id);
        assertEquals(before, spool.holdings());
        given().queryParam("id", id + "-1").body("payload").when().post("/items").then().statusCode(201);
    }

    @Test
    void emptyIdIsRefused() throws IOException {
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().queryParam("id", "").body("payload").when().post("/items").then(),
                400, "id is required");
        assertEquals(before, spool.holdings());
    }

    @Test
    void idsUpTo128CharactersAreAcceptedAnd129Refused() throws IOException {
        String unique = SpoolFixture.uniqueId("long");
        String longest = unique + "a".repeat(128 - unique.length());
        given().queryParam("id", longest).body("x").when().post("/items").then().statusCode(201);

        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().queryParam("id", longest + "b").body("x").when().post("/items").then(),
                400, "invalid item id");
        assertEquals(before, spool.holdings(), "nothing of the 129 written");
        assertEquals("x", pendingText(longest));
        spool.assertNoStaging();
    }

    @Test
    void aPendingIdIsNotReplaced() throws IOException {
        String id = SpoolFixture.uniqueId("dup");
        given().queryParam("id", id).body("first").when().post("/items").then().statusCode(201);

        SpoolFixture.assertError(given().queryParam("id", id).body("second").when().post("/items").then(),
                409, "already exists");
        assertEquals("first", pendingText(id));
        spool.assertNoStaging();
    }

    @Test
    void anIdAlreadyDoneIsRefused() throws IOException {
        String id = SpoolFixture.uniqueId("dup-done");
        given().queryParam("id", id).body("first").when().post("/items").then().statusCode(201);
        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));

        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().queryParam("id", id).body("again").when().post("/items").then(),
                409, "already exists");
        assertEquals(before, spool.holdings());
        spool.assertNoStaging();
    }

    @Test
    void anIdAlreadyFailedIsRefused() throws IOException {
        String id = SpoolFixture.uniqueId("dup-failed");
        given().queryParam("id", id).body("first").when().post("/items").then().statusCode(201);
        given().when().delete("/items/{id}", id).then().statusCode(200).body("state", equalTo("failed"));

        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().queryParam("id", id).body("again").when().post("/items").then(),
                409, "already exists");
        assertEquals(before, spool.holdings());
        spool.assertNoStaging();
    }
}
