package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GET /items/{id} of a claim, and GET /items?state=&limit= oldest first, on files planted in the spool
 * with chosen readings and write times (and junk beside them): directory-only, since the ages and the held
 * claims are made by planting files. The look-ups HTTP alone reaches are in {@link ItemsApiContract}.
 */
@QuarkusTest
class ItemsQueryTest {

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    private String plantClaim(String id, String generation, Instant reading) throws IOException {
        ClaimName claim = new ClaimName(id, Generation.parse(generation).orElseThrow(), reading);
        Files.writeString(layout.claimFile(claim), "held");
        return claim.fileName();
    }

    @Test
    void claimedShowsAttemptGenerationAndLeaseEnd() throws IOException {
        String id = SpoolFixture.uniqueId("look-claimed");
        Instant reading = clock.now().minusSeconds(5).plusMillis(123);
        plantClaim(id, "2-abc123", reading);

        String expires = given().when().get("/items/{id}", id).then().statusCode(200)
                .body("id", equalTo(id)).body("state", equalTo("claimed"))
                .body("attempt", equalTo(2)).body("generation", equalTo("2-abc123"))
                .body("$", not(hasKey("reason")))
                .extract().path("leaseExpiresAt");
        // The default claim lease is 120s, counted from the reading in the claim's name.
        org.junit.jupiter.api.Assertions.assertEquals(reading.plus(Duration.ofSeconds(120)), Instant.parse(expires));
    }

    @Test
    void pendingListIsOldestFirstAndLimited() throws IOException {
        Instant now = clock.now();
        // Names sort the other way round from ages, so the order can only come from the write times.
        SpoolFixture.plantPending(layout, "c-oldest", "1", now.minusSeconds(30));
        SpoolFixture.plantPending(layout, "a-newest", "3", now.minusSeconds(10));
        SpoolFixture.plantPending(layout, "b-middle", "2", now.minusSeconds(20));
        Files.createDirectory(layout.file(SpoolFolder.PENDING, "0-a-directory")); // not an item

        given().queryParam("state", "pending").when().get("/items").then().statusCode(200)
                .body("id", contains("c-oldest", "b-middle", "a-newest"))
                .body("state", contains("pending", "pending", "pending"));
        given().queryParam("state", "pending").queryParam("limit", 2).when().get("/items").then().statusCode(200)
                .body("id", contains("c-oldest", "b-middle"));
        given().queryParam("limit", 1).when().get("/items").then().statusCode(200).body("id", contains("c-oldest"));
    }

    @Test
    void claimedListIsOrderedByReadingAndDoneByWriteTime() throws IOException {
        Instant now = clock.now();
        plantClaim("z-first", "1-aaa", now.minusSeconds(50));
        plantClaim("y-second", "3-bbb", now.minusSeconds(40));
        given().queryParam("state", "claimed").when().get("/items").then().statusCode(200)
                .body("id", contains("z-first", "y-second")).body("attempt", contains(1, 3));

        Files.writeString(layout.file(SpoolFolder.DONE, "q-late"), "x");
        Files.writeString(layout.file(SpoolFolder.DONE, "r-early"), "x");
        Files.setLastModifiedTime(layout.file(SpoolFolder.DONE, "q-late"), FileTime.from(now.minusSeconds(1)));
        Files.setLastModifiedTime(layout.file(SpoolFolder.DONE, "r-early"), FileTime.from(now.minusSeconds(9)));
        given().queryParam("state", "done").queryParam("limit", 10).when().get("/items").then().statusCode(200)
                .body("id", contains("r-early", "q-late"));
        given().queryParam("state", "failed").when().get("/items").then().statusCode(200).body("size()", equalTo(0));
    }
}
