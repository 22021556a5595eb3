package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.handler.WorkItem;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** leasehold.handler names a user's @Named CDI bean: it gets the id, the attempt, the payload and epoch 0. */
@QuarkusTest
@TestProfile(RecordingHandlerProfile.class)
class CustomHandlerTest {

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @Inject
    RecordingHandler handler;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    @Test
    void theSelectedBeanGetsIdAttemptPayloadAndEpoch() {
        String id = SpoolFixture.uniqueId("custom");
        byte[] payload = {0, 1, 2, (byte) 0xff, 'o', 'k'};
        given().queryParam("id", id).contentType("application/octet-stream").body(payload).when().post("/items")
                .then().statusCode(201);

        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).body("done", equalTo(1));

        List<WorkItem> seen = handler.seen(id);
        assertEquals(1, seen.size(), "one attempt");
        assertEquals(id, seen.get(0).id());
        assertEquals(1, seen.get(0).attempt());
        assertArrayEquals(payload, seen.get(0).payload());
        assertEquals(0L, seen.get(0).epoch(), "no bus: epoch 0");
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));
    }

    @Test
    void aFailureFromTheBeanIsShownAsTheReason() {
        String id = SpoolFixture.uniqueId("custom-fail");
        given().queryParam("id", id).body("fail").when().post("/items").then().statusCode(201);

        given().when().post("/drain").then().statusCode(200).body("failed", equalTo(1)).body("done", equalTo(0));

        given().when().get("/items/{id}", id).then().statusCode(200)
                .body("state", equalTo("failed")).body("reason", equalTo(RecordingHandler.FAIL_REASON));
        assertEquals(List.of(id), SpoolFixture.names(layout, SpoolFolder.FAILED));
    }

    @Test
    void aRetryComesBackAsTheNextAttempt() {
        String id = SpoolFixture.uniqueId("custom-retry");
        given().queryParam("id", id).body("retry-once").when().post("/items").then().statusCode(201);

        given().when().post("/drain").then().statusCode(200).body("retried", equalTo(1)).body("done", equalTo(0));
        // Parked for its backoff: retrying from runAt (docs/http-api.md, Item views), attempt 1 done with, no lease held.
        given().when().get("/items/{id}", id).then().body("state", equalTo("retrying")).body("attempt", equalTo(1))
                .body("runAt", notNullValue()).body("leaseExpiresAt", nullValue());

        // Past the backoff (at most leasehold.drain.backoff-max, 5m): the next pass takes it as attempt 2.
        clock.set(clock.now().plus(Duration.ofMinutes(6)));
        given().when().post("/drain").then().statusCode(200).body("tookOver", equalTo(1)).body("done", equalTo(1));

        List<WorkItem> seen = handler.seen(id);
        assertEquals(List.of(1, 2), seen.stream().map(WorkItem::attempt).toList());
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));
    }
}
