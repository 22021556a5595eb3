package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.directory.DirectoryBackend;
import io.leasehold.directory.PosixItemStore;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.directory.SpoolRecount;
import io.leasehold.spool.SpoolBackend;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GET /spool after changes made outside this instance, by plain file operations as another program or
 * another instance makes them: they show after one recount (the tick the census runs every
 * leasehold.spool.recount-every), exactly, and the census then agrees with a full listing.
 */
@QuarkusTest
class CensusRecountTest {

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
    void dropInsRemovalsAndOtherInstancesMovesShowAfterOneRecount() throws IOException {
        String own = SpoolFixture.uniqueId("own");
        String removed = SpoolFixture.uniqueId("removed");
        given().queryParam("id", own).body("o").when().post("/items").then().statusCode(201);
        given().queryParam("id", removed).body("r").when().post("/items").then().statusCode(201);
        counts(2, 0, 0, 0);

        String dropped1 = SpoolFixture.uniqueId("dropped");
        String dropped2 = SpoolFixture.uniqueId("dropped");
        String settledElsewhere = SpoolFixture.uniqueId("settled");
        SpoolFixture.plantPending(layout, dropped1, "1", clock.now().minusSeconds(40));
        SpoolFixture.plantPending(layout, dropped2, "2", clock.now().minusSeconds(10));
        SpoolFixture.plantPending(layout, settledElsewhere, "3", clock.now().minusSeconds(50));
        Files.delete(layout.file(SpoolFolder.PENDING, removed));
        // Another instance claims one item and settles another: renames, as its drain makes them.
        claimElsewhere(own);
        Files.move(layout.file(SpoolFolder.PENDING, settledElsewhere), layout.file(SpoolFolder.DONE, settledElsewhere));

        SpoolFixture.recount();
        counts(2, 1, 1, 0).body("oldestPendingAgeMs", equalTo(40_000));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");
    }

    @Test
    void aRecountRepairsDriftAndACountNeverGoesNegative() throws IOException {
        // Dropped in behind the census's back, then cancelled here: taking out an item it never counted
        // takes pending/ below zero, which reads 0 (and the next enqueue brings it back to 0).
        String unseen = SpoolFixture.uniqueId("unseen");
        SpoolFixture.plantPending(layout, unseen, "u", clock.now().minusSeconds(5));
        given().when().delete("/items/{id}", unseen).then().statusCode(200).body("state", equalTo("failed"));
        counts(0, 0, 0, 1).body("oldestPendingAgeMs", equalTo(0));
        given().queryParam("id", SpoolFixture.uniqueId("after")).body("a").when().post("/items").then().statusCode(201);
        counts(0, 0, 0, 1); // drifted by the unseen one: 1 is pending

        // A burst from outside: 300 dropped in, 120 of them removed again, 30 settled by another instance.
        for (int i = 0; i < 300; i++) {
            SpoolFixture.plantPending(layout, "burst-" + i, "b", clock.now().minusSeconds(1000 - i));
        }
        for (int i = 0; i < 120; i++) {
            Files.delete(layout.file(SpoolFolder.PENDING, "burst-" + i));
        }
        for (int i = 120; i < 150; i++) {
            Files.move(layout.file(SpoolFolder.PENDING, "burst-" + i), layout.file(SpoolFolder.FAILED, "burst-" + i));
        }

        counts(0, 0, 0, 1); // GET /spool lists nothing: the census has drifted further from the folders
        SpoolFixture.recount();
        counts(151, 0, 0, 31).body("oldestPendingAgeMs", equalTo(850_000));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");
    }

    @Test
    void theAgeFollowsTheOldestItemWhenItIsClaimed() throws IOException {
        String first = SpoolFixture.uniqueId("age-a");
        String second = SpoolFixture.uniqueId("age-b");
        String third = SpoolFixture.uniqueId("age-c");
        SpoolFixture.plantPending(layout, first, "1", clock.now().minusSeconds(90));
        SpoolFixture.plantPending(layout, second, "2", clock.now().minusSeconds(60));
        SpoolFixture.plantPending(layout, third, "3", clock.now().minusSeconds(30));
        SpoolFixture.recount();
        counts(3, 0, 0, 0).body("oldestPendingAgeMs", equalTo(90_000));

        // Claimed here: at once.
        given().when().delete("/items/{id}", first).then().statusCode(200);
        counts(2, 0, 0, 1).body("oldestPendingAgeMs", equalTo(60_000));
        // Claimed by another instance: the age follows at once (GET /spool checks the oldest it knows of
        // with one stat), the count after the recount.
        ClaimName taken = claimElsewhere(second);
        given().when().get("/spool").then().body("oldestPendingAgeMs", equalTo(30_000));
        SpoolFixture.recount();
        counts(1, 1, 0, 1).body("oldestPendingAgeMs", equalTo(30_000));

        // Handed back by that instance: its file keeps its write time, the oldest again. A recount by
        // names does not see ages; one of every FULL_LOOK_EVERY looks at each pending file's.
        clock.pass(Duration.ofSeconds(10));
        Files.move(layout.claimFile(taken), layout.file(SpoolFolder.PENDING, second));
        for (int i = 0; i < SpoolRecount.FULL_LOOK_EVERY; i++) {
            SpoolFixture.recount();
        }
        counts(2, 0, 0, 1).body("oldestPendingAgeMs", equalTo(70_000));
        assertEquals(store().fullCounts(), store().counts(), "the census agrees with a full listing");
    }

    /** What another instance's claim is: a rename of pending/<id> to a claim name of its own. */
    private ClaimName claimElsewhere(String id) throws IOException {
        ClaimName claim = new ClaimName(id, Generation.first(), clock.now());
        Path from = layout.file(SpoolFolder.PENDING, id);
        Files.move(from, layout.claimFile(claim));
        return claim;
    }

    private static ValidatableResponse counts(int pending, int claimed, int done, int failed) {
        return given().when().get("/spool").then().statusCode(200)
                .body("pending", equalTo(pending)).body("claimed", equalTo(claimed))
                .body("done", equalTo(done)).body("failed", equalTo(failed));
    }
}
