package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.directory.SpoolLayout;
import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /schedules and the acts on one schedule, on the schedules of the test configuration, ticked on the driven clock. */
@QuarkusTest
class SchedulesApiTest {

    private static final Instant T = Instant.parse("2026-12-05T00:59:55Z");

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @Inject
    ScheduleFiring firing;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
        clock.set(T);
    }

    @Test
    void listsEverySchedulesRuleNextFireTimeAndLastItemWithItsState() {
        firing.tick(); // the first look starts the schedules: nothing before now fires
        clock.advance(Duration.ofSeconds(10));
        firing.tick();
        given().when().get("/schedules").then().statusCode(200)
                .body("", hasSize(2))
                .body("[0].name", equalTo("fast")).body("[0].every", equalTo("10s")).body("[0].cron", nullValue())
                .body("[0].timeZone", nullValue()).body("[0].misfire", equalTo("all")).body("[0].maxCatchUp", equalTo(100))
                .body("[0].paused", equalTo(false)).body("[0].late", equalTo(false))
                .body("[0].next", equalTo("2026-12-05T01:00:10Z"))
                .body("[0].lastFired.fireTime", equalTo("2026-12-05T01:00:00Z"))
                .body("[0].lastFired.id", equalTo("fast.20261205T010000Z"))
                .body("[0].lastFired.state", equalTo("pending"))
                .body("[0].lastFired.epoch", equalTo(0))
                .body("[1].name", equalTo("nightly")).body("[1].cron", equalTo("0 0 2 * * ?"))
                .body("[1].timeZone", equalTo("Europe/Berlin")).body("[1].misfire", equalTo("latest"))
                // 02:00 in Berlin is 01:00 UTC in winter: the same second as fast's.
                .body("[1].next", equalTo("2026-12-06T01:00:00Z"))
                .body("[1].lastFired.id", equalTo("nightly.20261205T010000Z"));
        given().when().get("/items/fast.20261205T010000Z").then().statusCode(200).body("state", equalTo("pending"));
    }

    @Test
    void aTriggerMakesOneItemNowNamedByTheInstant() {
        given().when().post("/schedules/nightly/trigger").then().statusCode(201)
                .header("Location", startsWith("http"))
                .body("id", equalTo("nightly.manual-20261205T005955.000Z")).body("state", equalTo("pending"));
        given().when().get("/items/nightly.manual-20261205T005955.000Z").then().statusCode(200);
        // A second trigger in the same millisecond would be the same item: refused as any known id.
        given().when().post("/schedules/nightly/trigger").then().statusCode(409);
    }

    @Test
    void aPauseIsKeptForTheFleetAndAResumeLiftsIt() {
        firing.tick();
        given().when().post("/schedules/fast/pause").then().statusCode(200)
                .body("paused", equalTo(true)).body("by", equalTo("api")).body("since", equalTo("2026-12-05T00:59:55Z"));
        clock.advance(Duration.ofSeconds(1));
        given().when().post("/schedules/fast/pause").then().statusCode(200) // paused already: nothing changes
                .body("paused", equalTo(true)).body("since", equalTo("2026-12-05T00:59:55Z"));
        clock.advance(Duration.ofSeconds(29));
        firing.tick();
        given().when().get("/schedules").then().statusCode(200)
                .body("[0].paused", equalTo(true)).body("[0].pausedBy.paused", equalTo(true))
                .body("[0].lastFired", nullValue()).body("[0].next", nullValue()); // paused: nothing will fire
        given().when().post("/schedules/fast/resume").then().statusCode(200).body("paused", equalTo(false));
        clock.advance(Duration.ofSeconds(10));
        firing.tick();
        given().when().get("/schedules").then().statusCode(200)
                .body("[0].paused", equalTo(false)).body("[0].lastFired.id", equalTo("fast.20261205T010030Z"));
    }

    @Test
    void eachScheduleIsGaugedAndItsItemsCounted() {
        double firedBefore = Scrape.now().sampleOrZero("leasehold_schedule_fired_total", "schedule=\"fast\"");
        firing.tick();
        clock.advance(Duration.ofSeconds(10));
        firing.tick();
        Scrape now = Scrape.now();
        assertEquals(firedBefore + 1, now.sample("leasehold_schedule_fired_total", "schedule=\"fast\""), now.text);
        assertEquals(Instant.parse("2026-12-05T01:00:00Z").getEpochSecond(),
                now.sample("leasehold_schedule_last_fire_time_seconds", "schedule=\"fast\""), now.text);
        assertEquals(Instant.parse("2026-12-05T01:00:10Z").getEpochSecond(),
                now.sample("leasehold_schedule_next_fire_time_seconds", "schedule=\"fast\""), now.text);
        assertEquals(0.0, now.sample("leasehold_schedule_late", "schedule=\"fast\""), now.text);
        assertEquals(0.0, now.sample("leasehold_schedule_paused", "schedule=\"fast\""), now.text);
        assertEquals(0.0, now.sample("leasehold_schedule_clock_behind_seconds", "schedule=\"fast\""), now.text);
    }

    @Test
    void anUnknownScheduleIs404NamingTheConfiguredOnes() {
        for (String act : new String[] {"trigger", "pause", "resume"}) {
            given().when().post("/schedules/weekly/" + act).then().statusCode(404)
                    .body("error", equalTo("no schedule 'weekly'; configured: fast, nightly"));
        }
    }
}
