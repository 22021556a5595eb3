package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /stats: this instance's items per minute, as the drain and the API told them, on the driven clock. */
@QuarkusTest
class StatsApiTest {

    @Inject
    DrivenClock clock;

    @Inject
    SpoolLayout layout;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    @Test
    void theLastMinuteCountsWhatWasEnqueuedAndDoneAndAnEarlierOneKeepsItsOwn() {
        clock.advance(Duration.ofMinutes(2)); // a minute of its own, whatever earlier tests did
        for (int i = 0; i < 3; i++) {
            given().queryParam("id", SpoolFixture.uniqueId("counted")).body("p").when().post("/items").then().statusCode(201);
        }
        given().contentType("application/x-ndjson").body("{\"payload\":\"a\"}\n{\"payload\":\"b\"}\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)).when()
                .post("/items/batch").then().statusCode(201);
        given().when().get("/stats?window=2m").then().statusCode(200).body("windowMinutes", equalTo(2))
                .body("minutes[-1].enqueued", equalTo(5)).body("minutes[-1].done", equalTo(0))
                .body("minutes[-1].pending", equalTo(5));
        clock.advance(Duration.ofMinutes(1));
        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).body("done", equalTo(5));
        given().when().get("/stats?window=2m").then().statusCode(200).body("minutes", hasSize(2))
                .body("minutes[0].enqueued", equalTo(5)).body("minutes[0].pending", equalTo(5))
                .body("minutes[1].done", equalTo(5)).body("minutes[1].enqueued", equalTo(0))
                .body("minutes[1].failed", equalTo(0)).body("minutes[1].pending", equalTo(0));
    }

    @Test
    void theSamplingTickGivesEveryMinuteItsPendingCount() {
        given().queryParam("id", SpoolFixture.uniqueId("waiting")).body("p").when().post("/items").then().statusCode(201);
        clock.advance(Duration.ofMinutes(3)); // the 15 s sampling tick runs as the driven clock passes it
        given().when().get("/stats?window=3m").then().statusCode(200).body("minutes", hasSize(3))
                .body("minutes.pending", equalTo(java.util.List.of(1, 1, 1)))
                .body("minutes[0].oldestPendingAgeMs", org.hamcrest.Matchers.notNullValue()); // its value: file times against the driven clock
    }

    @Test
    void aWindowThatIsNoDurationOfOneMinuteToADayIs400NamingIt() {
        for (String bad : new String[] {"soon", "30s", "25h", "-1h", "0m"}) {
            SpoolFixture.assertError(given().queryParam("window", bad).when().get("/stats").then(), 400, "window must be");
        }
        given().when().get("/stats").then().statusCode(200).body("windowMinutes", equalTo(60));
    }
}
