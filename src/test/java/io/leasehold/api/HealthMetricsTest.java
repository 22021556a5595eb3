package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.directory.SpoolRecount;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * /q/health/ready follows the spool's folders, and the item gauges count files other programs drop in:
 * directory-only, both are about the folders. The drain's meters are in {@link DrainContract}.
 */
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

    @Test
    void itemGaugesFollowOwnMovesAtOnceAndOthersAfterARecount() throws IOException {
        SpoolFixture.plantPending(layout, SpoolFixture.uniqueId("g"), "1", clock.now().minusSeconds(4));
        SpoolFixture.plantPending(layout, SpoolFixture.uniqueId("g"), "2", clock.now().minusSeconds(2));
        Files.writeString(layout.file(SpoolFolder.FAILED, SpoolFixture.uniqueId("gf")), "f");
        // Written by another program: a scrape shows them once the census has recounted.
        assertEquals(0.0, Scrape.now().sample("leasehold_items", "state=\"pending\""));
        clock.tick(SpoolRecount.TICK);

        Scrape text = Scrape.now();
        assertEquals(2.0, text.sample("leasehold_items", "state=\"pending\""), text.text);
        assertEquals(0.0, text.sample("leasehold_items", "state=\"claimed\""), text.text);
        assertEquals(0.0, text.sample("leasehold_items", "state=\"done\""), text.text);
        assertEquals(1.0, text.sample("leasehold_items", "state=\"failed\""), text.text);
        assertEquals(4.0, text.sample("leasehold_pending_oldest_age_seconds", ""), text.text);

        given().when().post("/drain").then().statusCode(200).body("done", equalTo(2));
        // This instance's own moves show at once, without a recount.
        Scrape later = Scrape.now();
        assertEquals(0.0, later.sample("leasehold_items", "state=\"pending\""), later.text);
        assertEquals(2.0, later.sample("leasehold_items", "state=\"done\""), later.text);
        assertEquals(0.0, later.sample("leasehold_pending_oldest_age_seconds", ""), later.text);
    }

    @Test
    void aScheduledItemIsGaugedAndCountedAsScheduledAndNotAsClaimed() {
        clock.tick(SpoolRecount.TICK); // the emptied spool, recounted
        String id = SpoolFixture.uniqueId("later");
        given().body("x").when().post("/items?id=" + id + "&delay=2h").then().statusCode(201)
                .body("state", equalTo("scheduled"));

        Scrape text = Scrape.now();
        assertEquals(1.0, text.sample("leasehold_items", "state=\"scheduled\""), text.text);
        assertEquals(0.0, text.sample("leasehold_items", "state=\"claimed\""), text.text);
        assertEquals(0.0, text.sample("leasehold_items", "state=\"retrying\""), text.text);
        given().when().get("/spool").then().statusCode(200).body("scheduled", equalTo(1))
                .body("claimed", equalTo(0)).body("retrying", equalTo(0));
        clock.tick(SpoolRecount.TICK);
        given().when().get("/spool").then().statusCode(200).body("scheduled", equalTo(1))
                .body("claimed", equalTo(0));
    }
}
