package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.SpoolFolder;
import io.leasehold.spool.SpoolLayout;
import io.leasehold.spool.SpoolRecount;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** /q/health/ready follows the spool's folders; /q/metrics shows the drain's meters in Prometheus text. */
@QuarkusTest
class HealthMetricsTest {

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    @Test
    void readyWhileTheSpoolIsUsableAndDownWhileAFolderIsMissing() throws IOException {
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem("spool"));

        // Removing a folder (root ignores chmod, so permissions would prove nothing here).
        Path done = layout.folder(SpoolFolder.DONE);
        Files.delete(done);
        try {
            given().when().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'spool' }.status", equalTo("DOWN"));
            // Liveness is not about the spool: the process is alive and must not be restarted for it.
            given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        } finally {
            layout.createFolders();
        }
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void aFileWhereAFolderBelongsIsNotReady() throws IOException {
        Path tmp = layout.folder(SpoolFolder.TMP);
        Files.delete(tmp);
        Files.writeString(tmp, "not a folder");
        try {
            given().when().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"));
        } finally {
            Files.delete(tmp);
            layout.createFolders();
        }
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    private static String metrics() {
        return given().when().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The value of one sample line; a line that is missing fails the test. */
    private static double sample(String text, String name, String labels) {
        Double value = sampleOrNull(text, name, labels);
        if (value == null) {
            throw new AssertionError("no sample " + name + "{" + labels + "} in:\n" + text);
        }
        return value;
    }

    /** Before anything was counted a meter registered on first use has no line yet: that is 0. */
    private static double sampleOrZero(String text, String name, String labels) {
        Double value = sampleOrNull(text, name, labels);
        return value == null ? 0 : value;
    }

    private static Double sampleOrNull(String text, String name, String labels) {
        Pattern line = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([0-9.eE+-]+)$");
        Matcher m = line.matcher(text);
        while (m.find()) {
            String found = m.group(1) == null ? "" : m.group(1);
            if (labels.isEmpty() || found.contains(labels)) {
                return Double.parseDouble(m.group(2));
            }
        }
        return null;
    }

    @Test
    void drainMetersCountClaimsAttemptsAndHandlerTime() {
        String before = metrics();
        double claims = sampleOrZero(before, "leasehold_claims_total", "");
        double doneAttempts = sampleOrZero(before, "leasehold_attempts_total", "outcome=\"done\"");
        double timed = sampleOrZero(before, "leasehold_handler_duration_seconds_count", "outcome=\"done\"");

        for (int i = 0; i < 3; i++) {
            given().queryParam("id", SpoolFixture.uniqueId("metered")).body("m").when().post("/items").then()
                    .statusCode(201);
        }
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(3));

        String after = metrics();
        assertEquals(claims + 3, sample(after, "leasehold_claims_total", ""), after);
        assertEquals(doneAttempts + 3, sample(after, "leasehold_attempts_total", "outcome=\"done\""), after);
        assertEquals(timed + 3, sample(after, "leasehold_handler_duration_seconds_count", "outcome=\"done\""), after);
        assertTrue(after.contains("# TYPE leasehold_handler_duration_seconds summary")
                || after.contains("# TYPE leasehold_handler_duration_seconds histogram"), "handler time is a timer");
    }

    @Test
    void itemGaugesFollowOwnMovesAtOnceAndOthersAfterARecount() throws IOException {
        SpoolFixture.plantPending(layout, SpoolFixture.uniqueId("g"), "1", clock.now().minusSeconds(4));
        SpoolFixture.plantPending(layout, SpoolFixture.uniqueId("g"), "2", clock.now().minusSeconds(2));
        Files.writeString(layout.file(SpoolFolder.FAILED, SpoolFixture.uniqueId("gf")), "f");
        // Written by another program: a scrape shows them once the census has recounted.
        assertEquals(0.0, sample(metrics(), "leasehold_items", "state=\"pending\""));
        clock.tick(SpoolRecount.TICK);

        String text = metrics();
        assertEquals(2.0, sample(text, "leasehold_items", "state=\"pending\""), text);
        assertEquals(0.0, sample(text, "leasehold_items", "state=\"claimed\""), text);
        assertEquals(0.0, sample(text, "leasehold_items", "state=\"done\""), text);
        assertEquals(1.0, sample(text, "leasehold_items", "state=\"failed\""), text);
        assertEquals(4.0, sample(text, "leasehold_pending_oldest_age_seconds", ""), text);

        given().when().post("/drain").then().statusCode(200).body("done", equalTo(2));
        // This instance's own moves show at once, without a recount.
        String later = metrics();
        assertEquals(0.0, sample(later, "leasehold_items", "state=\"pending\""), later);
        assertEquals(2.0, sample(later, "leasehold_items", "state=\"done\""), later);
        assertEquals(0.0, sample(later, "leasehold_pending_oldest_age_seconds", ""), later);
    }
}
