package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.restassured.response.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** POST /items/{id}/purge: one settled item removed, through the command line's ItemStore.purgeSettled. */
abstract class PurgeItemContract extends BackendContract {

    private static void enqueue(String id, String payload) {
        given().queryParam("id", id).body(payload).when().post("/items").then().statusCode(201);
    }

    private static Response purge(String id) {
        return given().when().post("/items/{id}/purge", id);
    }

    @Test
    void aDoneItemIsPurgedAndItsIdMayBeEnqueuedAgain() throws IOException {
        String id = SpoolFixture.uniqueId("purge-done");
        enqueue(id, "first");
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));

        String answer = purge(id).then().statusCode(200).body("purged", equalTo(1)).extract().asString();
        assertTrue(Files.readString(Path.of("docs/http-api.md")).contains("→ 200 `" + answer + "`"), "the doc shows " + answer);
        SpoolFixture.assertError(given().when().get("/items/{id}", id).then(), 404, "no item");
        SpoolFixture.assertError(given().when().get("/items/{id}/payload", id).then(), 404, "no item");
        assertFalse(spool.isReserved(id), "nothing of it is kept");

        given().queryParam("id", id).body("second").when().post("/items").then().statusCode(201)
                .body("state", equalTo("pending"));
        assertEquals("second", given().when().get("/items/{id}/payload", id).then().statusCode(200).extract()
                .asString(), "the new item under the id");
    }

    @Test
    void aFailedItemIsPurgedToo() {
        String id = SpoolFixture.uniqueId("purge-failed");
        enqueue(id, "f");
        given().when().delete("/items/{id}", id).then().statusCode(200).body("state", equalTo("failed"));

        purge(id).then().statusCode(200).body("purged", equalTo(1));
        given().when().get("/items/{id}", id).then().statusCode(404);
    }

    /** A purge never takes an item still to run: the 409 says to cancel it first, and nothing changes. */
    @Test
    void anItemStillToRunIs409NamingTheCancelAndIsKept() throws IOException {
        String pending = SpoolFixture.uniqueId("purge-pending");
        enqueue(pending, "p");
        String scheduled = SpoolFixture.uniqueId("purge-scheduled");
        given().queryParam("id", scheduled).queryParam("delay", "1h").body("s").when().post("/items").then()
                .statusCode(201).body("state", equalTo("scheduled"));
        List<String> before = spool.holdings();

        SpoolFixture.assertError(purge(pending).then(), 409, "'" + pending + "' is pending, not done or failed:"
                + " cancel it first (DELETE /items/" + pending + ", or items cancel " + pending + "), then purge it");
        SpoolFixture.assertError(purge(scheduled).then(), 409, "is scheduled, not done or failed: cancel it first");
        assertEquals(before, spool.holdings(), "nothing was written");

        given().when().delete("/items/{id}", scheduled).then().statusCode(200);
        purge(scheduled).then().statusCode(200).body("purged", equalTo(1));
    }

    @Test
    void anUnknownItemIs404AndABadIdIs400() throws IOException {
        List<String> before = spool.holdings();
        SpoolFixture.assertError(purge(SpoolFixture.uniqueId("ghost")).then(), 404, "no item");
        SpoolFixture.assertError(purge("a~b").then(), 400, "invalid item id");
        SpoolFixture.assertError(purge(".dot").then(), 400, "invalid item id");
        assertEquals(before, spool.holdings());
    }

    /** Two real requests at once for one item, over several items: one removes it, the other finds it gone. */
    @Test
    void ofTwoPurgesAtOnceExactlyOneIs200AndTheOther404() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) { // rounds: the two must meet between the lookup and the removal
            ids.add(SpoolFixture.uniqueId("purge-race"));
            enqueue(ids.get(i), "r");
        }
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(ids.size()));
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (String id : ids) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Response>> both = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    both.add(two.submit(() -> {
                        go.await();
                        return purge(id);
                    }));
                }
                go.countDown();
                Response a = both.get(0).get(30, TimeUnit.SECONDS);
                Response b = both.get(1).get(30, TimeUnit.SECONDS);
                Response lost = a.statusCode() == 200 ? b : a;
                assertEquals(List.of(200, 404), List.of(a.statusCode() == 200 ? a.statusCode() : b.statusCode(),
                        lost.statusCode()), id + ": " + a.asString() + " and " + b.asString());
                SpoolFixture.assertError(lost.then(), 404, "no item '" + id + "'");
                given().when().get("/items/{id}", id).then().statusCode(404);
            }
        } finally {
            two.shutdownNow();
        }
    }
}
