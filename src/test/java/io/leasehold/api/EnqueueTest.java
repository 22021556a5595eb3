package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ItemId;
import io.leasehold.spool.SpoolFolder;
import io.leasehold.spool.SpoolLayout;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** POST /items: what lands in pending/, and what is refused with nothing written. */
@QuarkusTest
class EnqueueTest {

    @Inject
    SpoolLayout layout;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
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

        assertArrayEquals(payload, Files.readAllBytes(layout.file(SpoolFolder.PENDING, id)));
        SpoolFixture.assertEmpty(layout, SpoolFolder.TMP);
    }

    @Test
    void emptyBodyIsAnEmptyItem() throws IOException {
        String id = SpoolFixture.uniqueId("empty");
        given().queryParam("id", id).when().post("/items").then().statusCode(201).body("id", equalTo(id));
        assertEquals(0, Files.size(layout.file(SpoolFolder.PENDING, id)));
    }

    @Test
    void withoutAnIdAValidOneIsGenerated() throws IOException {
        String first = given().body("one").when().post("/items").then().statusCode(201)
                .body("state", equalTo("pending")).extract().path("id");
        String second = given().body("two").when().post("/items").then().statusCode(201).extract().path("id");

        assertTrue(ItemId.isValid(first), "generated id " + first + " is a valid id");
        assertTrue(!first.equals(second), "two posts get two ids");
        assertEquals("one", Files.readString(layout.file(SpoolFolder.PENDING, first)));
        assertEquals("two", Files.readString(layout.file(SpoolFolder.PENDING, second)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a~b", "../x", ".hidden", "a/b", "-dash-first", "sp ace", "tab\tid", "é"})
    void invalidIdsAreRefusedWithNothingWritten(String id) {
        SpoolFixture.assertError(given().queryParam("id", id).body("payload").when().post("/items").then(),
                400, "invalid item id");
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
    }

    @Test
    void emptyIdIsRefused() {
        SpoolFixture.assertError(given().queryParam("id", "").body("payload").when().post("/items").then(),
                400, "id is required");
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
    }

    @Test
    void idsUpTo128CharactersAreAcceptedAnd129Refused() {
        String longest = "a".repeat(128);
        given().queryParam("id", longest).body("x").when().post("/items").then().statusCode(201);

        SpoolFixture.assertError(given().queryParam("id", "b".repeat(129)).body("x").when().post("/items").then(),
                400, "invalid item id");
        assertEquals(List.of(longest), SpoolFixture.names(layout, SpoolFolder.PENDING));
        SpoolFixture.assertEmpty(layout, SpoolFolder.TMP);
    }

    @Test
    void aPendingIdIsNotReplaced() throws IOException {
        String id = SpoolFixture.uniqueId("dup");
        given().queryParam("id", id).body("first").when().post("/items").then().statusCode(201);

        SpoolFixture.assertError(given().queryParam("id", id).body("second").when().post("/items").then(),
                409, "already exists");
        assertEquals("first", Files.readString(layout.file(SpoolFolder.PENDING, id)));
        SpoolFixture.assertEmpty(layout, SpoolFolder.TMP);
    }

    @Test
    void anIdAlreadyDoneIsRefused() {
        String id = SpoolFixture.uniqueId("dup-done");
        given().queryParam("id", id).body("first").when().post("/items").then().statusCode(201);
        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));

        SpoolFixture.assertError(given().queryParam("id", id).body("again").when().post("/items").then(),
                409, "already exists");
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
    }

    @Test
    void anIdAlreadyFailedIsRefused() {
        String id = SpoolFixture.uniqueId("dup-failed");
        given().queryParam("id", id).body("first").when().post("/items").then().statusCode(201);
        given().when().delete("/items/{id}", id).then().statusCode(200).body("state", equalTo("failed"));

        SpoolFixture.assertError(given().queryParam("id", id).body("again").when().post("/items").then(),
                409, "already exists");
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
    }
}
