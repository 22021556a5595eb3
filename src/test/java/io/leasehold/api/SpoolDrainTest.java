package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GET /spool of files planted by other programs and of an emptied spool, junk in the spool, and GET /lease
 * with no bus: directory-only (the JetStream spool has no folders to plant in, its ledger is shared by
 * the classes of its profile and never empty, and it needs leasehold.nats.url). POST /drain's answers are
 * {@link DrainContract}.
 */
@QuarkusTest
class SpoolDrainTest {

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    @Test
    void countsEveryFolderAndTheAgeOfTheOldestPendingItem() throws IOException {
        SpoolFixture.plantPending(layout, SpoolFixture.uniqueId("old"), "o", clock.now().minusSeconds(90));
        SpoolFixture.plantPending(layout, SpoolFixture.uniqueId("new"), "n", clock.now().minusSeconds(3));
        Files.writeString(layout.file(SpoolFolder.DONE, SpoolFixture.uniqueId("d")), "d");
        Files.writeString(layout.file(SpoolFolder.FAILED, SpoolFixture.uniqueId("f1")), "f");
        Files.writeString(layout.file(SpoolFolder.FAILED, SpoolFixture.uniqueId("f2")), "f");
        ClaimName claim = new ClaimName(SpoolFixture.uniqueId("c"), Generation.first(), clock.now());
        Files.writeString(layout.claimFile(claim), "c");
        SpoolFixture.recount(); // all written by another program: counted by the next recount

        given().when().get("/spool").then().statusCode(200)
                .body("pending", equalTo(2)).body("claimed", equalTo(1))
                .body("done", equalTo(1)).body("failed", equalTo(2))
                .body("oldestPendingAgeMs", equalTo(90_000));
    }

    @Test
    void anEmptySpoolCountsZero() {
        given().when().get("/spool").then().statusCode(200)
                .body("pending", equalTo(0)).body("claimed", equalTo(0)).body("done", equalTo(0))
                .body("failed", equalTo(0)).body("oldestPendingAgeMs", equalTo(0));
    }

    @Test
    void junkIsReportedLeftAloneAndRealItemsAroundItStillDrain() throws IOException {
        String badName = ".junk-" + System.nanoTime();
        String linkName = SpoolFixture.uniqueId("link");
        String dirName = SpoolFixture.uniqueId("dir");
        String badClaim = "garbage~" + System.nanoTime();
        Path outside = Files.writeString(layout.root().resolveSibling("outside-" + System.nanoTime()), "secret");
        try {
            Files.writeString(layout.file(SpoolFolder.PENDING, badName), "x");
            Files.createSymbolicLink(layout.file(SpoolFolder.PENDING, linkName), outside);
            Files.createDirectory(layout.file(SpoolFolder.PENDING, dirName));
            Files.writeString(layout.file(SpoolFolder.PENDING, dirName).resolve("inner"), "x");
            Files.writeString(layout.file(SpoolFolder.CLAIMED, badClaim), "x");
            SpoolFixture.recount(); // junk under valid names is told from items by the recount's stat-ing look
            String real1 = SpoolFixture.uniqueId("real");
            String real2 = SpoolFixture.uniqueId("real");
            given().queryParam("id", real1).body("r1").when().post("/items").then().statusCode(201);
            given().queryParam("id", real2).body("r2").when().post("/items").then().statusCode(201);

            given().when().get("/spool").then().statusCode(200).body("pending", equalTo(2))
                    .body("claimed", equalTo(0));

            given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200)
                    .body("done", equalTo(2)).body("idle", equalTo(true));
            // The same junk seen again on a second pass does not stall or crash it.
            given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200)
                    .body("claimed", equalTo(0)).body("idle", equalTo(true));

            given().when().get("/spool").then().statusCode(200)
                    .body("pending", equalTo(0)).body("done", equalTo(2)).body("claimed", equalTo(0))
                    .body("ignored.name", hasItems(badName, linkName, dirName, badClaim))
                    .body("ignored.findAll { it.name == '" + linkName + "' }.problem", hasItem("a symbolic link (never followed)"))
                    .body("ignored.findAll { it.name == '" + dirName + "' }.problem", hasItem("a directory where a file belongs"))
                    .body("ignored.findAll { it.name == '" + badName + "' }.folder", hasItem("pending"))
                    .body("ignored.findAll { it.name == '" + badClaim + "' }.folder", hasItem("claimed"))
                    .body("ignored.name", not(hasItem(real1)));

            // Left alone: every junk entry is where it was, and the symlink's target was never touched.
            assertTrue(Files.isSymbolicLink(layout.file(SpoolFolder.PENDING, linkName)));
            assertTrue(Files.isDirectory(layout.file(SpoolFolder.PENDING, dirName), LinkOption.NOFOLLOW_LINKS));
            assertTrue(Files.exists(layout.file(SpoolFolder.PENDING, badName)));
            assertTrue(Files.exists(layout.file(SpoolFolder.CLAIMED, badClaim)));
            assertEquals("secret", Files.readString(outside));
            assertEquals(List.of(real1, real2).stream().sorted().toList(), SpoolFixture.names(layout, SpoolFolder.DONE));
            // Lists and look-ups skip junk too.
            given().queryParam("state", "pending").when().get("/items").then().statusCode(200).body("size()", equalTo(0));
            given().when().get("/items/{id}", linkName).then().statusCode(404);
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void anIdOnceTakenByJunkDrainsWhenARealItemArrivesUnderIt() throws IOException {
        String id = SpoolFixture.uniqueId("was-junk");
        Path junk = Files.createDirectory(layout.file(SpoolFolder.PENDING, id));
        given().when().post("/drain").then().statusCode(200).body("claimed", equalTo(0));
        given().when().get("/spool").then().body("ignored.name", hasItem(id));

        // Someone cleans the junk up and the id is then used for a real item.
        Files.delete(junk);
        given().queryParam("id", id).body("real").when().post("/items").then().statusCode(201);
        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200)
                .body("done", equalTo(1)).body("idle", equalTo(true));
        given().when().get("/items/{id}", id).then().body("state", equalTo("done"));
        given().when().get("/spool").then().body("ignored.name", not(hasItem(id)));
    }

    @Test
    void withoutABusTheLeaseIsNoBusAtEpochZero() {
        given().when().get("/lease").then().statusCode(200)
                .body("mode", equalTo("no-bus")).body("epoch", equalTo(0))
                .body("$", not(hasKey("holder"))).body("$", not(hasKey("reset"))); // what does not apply is left out
    }
}
