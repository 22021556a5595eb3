package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.directory.DirectoryBackend;
import io.leasehold.directory.PosixItemStore;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.spool.SpoolBackend;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GET /spool after this instance's own moves, with no recount in between (none runs unless the test
 * ticks it): enqueue, claim, settle, park for a retry, cancel and retry show at once, and agree with a
 * full listing.
 */
@QuarkusTest
@TestProfile(RecordingHandlerProfile.class)
class CensusOwnMovesTest {

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @Inject
    SpoolBackend backend;

    /** The directory's own store, whose full listing the census is checked against. */
    private PosixItemStore store() {
        return ((DirectoryBackend) backend).store();
    }

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    @Test
    void enqueueClaimSettleAndParkShowAtOnce() throws IOException {
        String ok = SpoolFixture.uniqueId("own-ok");
        String fails = SpoolFixture.uniqueId("own-fail");
        String retries = SpoolFixture.uniqueId("own-retry");
        given().queryParam("id", ok).body("ok").when().post("/items").then().statusCode(201);
        counts(1, 0, 0, 0).body("oldestPendingAgeMs", equalTo(0));
        clock.pass(Duration.ofSeconds(7)); // no tick fires: the age counts from the enqueue
        given().queryParam("id", fails).body("fail").when().post("/items").then().statusCode(201);
        given().queryParam("id", retries).body("retry-once").when().post("/items").then().statusCode(201);
        counts(3, 0, 0, 0).body("oldestPendingAgeMs", equalTo(7_000));

        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200)
                .body("claimed", equalTo(3)).body("done", equalTo(1)).body("failed", equalTo(1))
                .body("retried", equalTo(1));
        // The retried one is parked for its backoff: retrying, not claimed, at once.
        counts(0, 0, 1, 1).body("oldestPendingAgeMs", equalTo(0)).body("retrying", equalTo(1));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");
    }

    @Test
    void cancelAndRetryShowAtOnceAndTheAgeFollowsTheOldest() throws IOException {
        String oldest = SpoolFixture.uniqueId("own-old");
        String younger = SpoolFixture.uniqueId("own-young");
        SpoolFixture.plantPending(layout, oldest, "ok", clock.now().minusSeconds(90));
        SpoolFixture.plantPending(layout, younger, "ok", clock.now().minusSeconds(30));
        SpoolFixture.recount(); // dropped in by another program
        counts(2, 0, 0, 0).body("oldestPendingAgeMs", equalTo(90_000));

        given().when().delete("/items/{id}", oldest).then().statusCode(200).body("state", equalTo("failed"));
        counts(1, 0, 0, 1).body("oldestPendingAgeMs", equalTo(30_000));
        given().when().delete("/items/{id}", younger).then().statusCode(200).body("state", equalTo("failed"));
        counts(0, 0, 0, 2).body("oldestPendingAgeMs", equalTo(0));

        // Back in pending/, it waits since its file was last dated, when it settled in failed/ (a settlement
        // dates the file for retention), not since the retry.
        clock.pass(Duration.ofSeconds(20));
        given().when().post("/items/{id}/retry", oldest).then().statusCode(200).body("state", equalTo("pending"));
        counts(1, 0, 0, 1).body("oldestPendingAgeMs", equalTo(20_000));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");

        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        counts(0, 0, 1, 1).body("oldestPendingAgeMs", equalTo(0));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");
    }

    @Test
    void aScheduledItemItsCancelAndItsRunShowAtOnce() throws IOException {
        String later = SpoolFixture.uniqueId("own-later");
        String dropped = SpoolFixture.uniqueId("own-dropped");
        given().queryParam("id", later).queryParam("delay", "1m").body("ok").when().post("/items").then()
                .statusCode(201);
        given().queryParam("id", dropped).queryParam("delay", "1h").body("ok").when().post("/items").then()
                .statusCode(201);
        counts(0, 0, 0, 0).body("scheduled", equalTo(2)).body("retrying", equalTo(0));

        given().when().delete("/items/{id}", dropped).then().statusCode(200).body("state", equalTo("failed"));
        counts(0, 0, 0, 1).body("scheduled", equalTo(1));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");

        // A pass sees the parked claim (a taker must see a claim unchanged before it takes it), then its time comes.
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(0));
        clock.pass(Duration.ofMinutes(2)); // no tick fires
        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        counts(0, 0, 1, 1).body("scheduled", equalTo(0));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");
    }

    private static ValidatableResponse counts(int pending, int claimed, int done, int failed) {
        return given().when().get("/spool").then().statusCode(200)
                .body("pending", equalTo(pending)).body("claimed", equalTo(claimed))
                .body("done", equalTo(done)).body("failed", equalTo(failed));
    }
}
