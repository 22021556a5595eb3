package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.LeaseTerms;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.Spool;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.HttpReceiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The service with leasehold.handler=http, drained by POST /drain against a real receiver. */
@QuarkusTest
@TestProfile(HttpHandlerProfile.class)
@WithTestResource(value = ReceiverResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class HttpDrainTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    SpoolLayout layout;

    @Inject
    Spool spool;

    @Inject
    DrivenClock clock;

    @Inject
    LeaseTerms terms;

    HttpReceiver receiver;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
        receiver.forgetEpochs();
    }

    @AfterEach
    void forget() {
        receiver.forgetEpochs();
    }

    private static void enqueue(String id, byte[] payload) {
        given().queryParam("id", id).contentType("application/octet-stream").body(payload)
                .when().post("/items").then().statusCode(201);
    }

    /** The reason a claim parked for a retry recorded (its own generation's record). */
    private String parkedReason(String id) throws IOException {
        ClaimName claim = SpoolFixture.names(layout, SpoolFolder.CLAIMED).stream().map(ClaimName::parse)
                .flatMap(java.util.Optional::stream).filter(c -> c.id().equals(id)).findFirst().orElseThrow();
        return spool.record(id, claim.generation()).map(AttemptRecord::text).orElseThrow();
    }

    @Test
    void eachAnswerClassSettlesTheItemAsTheContractSays() throws IOException {
        String ok = SpoolFixture.uniqueId("s200");
        String accepted = SpoolFixture.uniqueId("s202");
        String bad = SpoolFixture.uniqueId("s400");
        String missing = SpoolFixture.uniqueId("s404");
        String busy = SpoolFixture.uniqueId("s429");
        String down = SpoolFixture.uniqueId("s503");
        byte[] binary = {0, (byte) 0xff, 10, 13, (byte) 0xc3, 0x28};
        enqueue(ok, binary);
        for (String id : List.of(accepted, bad, missing, busy, down)) {
            enqueue(id, id.getBytes());
        }

        java.time.Instant passAt = clock.now(); // the driven clock stands still through the pass
        given().queryParam("budget", "20s").when().post("/drain").then().statusCode(200)
                .body("claimed", equalTo(6)).body("done", equalTo(2)).body("failed", equalTo(2))
                .body("retried", equalTo(2)).body("lost", equalTo(0)).body("idle", equalTo(true));

        assertEquals(List.of(ok, accepted).stream().sorted().toList(), SpoolFixture.names(layout, SpoolFolder.DONE));
        assertEquals(List.of(bad, missing).stream().sorted().toList(), SpoolFixture.names(layout, SpoolFolder.FAILED));
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING);
        given().when().get("/items/{id}", missing).then().statusCode(200).body("state", equalTo("failed"))
                .body("reason", equalTo("HTTP 404: answer 404 for " + missing));
        given().when().get("/items/{id}", bad).then().body("reason", equalTo("HTTP 400: answer 400 for " + bad));
        // Retried: parked in claimed/ for a later attempt, with why; the API says retrying (docs/http-api.md, Item views).
        for (String id : List.of(busy, down)) {
            String status = id.substring(1, 4);
            given().when().get("/items/{id}", id).then().body("state", equalTo("retrying")).body("attempt", equalTo(1))
                    .body("reason", equalTo("HTTP " + status + ": answer " + status + " for " + id));
            assertEquals("HTTP " + status + ": answer " + status + " for " + id,
                    parkedReason(id));
        }

        HttpReceiver.Received sent = receiver.last(ok).orElseThrow();
        assertArrayEquals(binary, sent.body());
        assertArrayEquals(binary, Files.readAllBytes(layout.file(SpoolFolder.DONE, ok)), "payload kept in done/");
        assertEquals("1.0", sent.header("ce-specversion"));
        assertEquals(ok, sent.header("ce-id"));
        assertEquals("io.leasehold.item", sent.header("ce-type"));
        String spoolPath = Path.of("target/test-spool").toAbsolutePath().normalize().toString();
        assertEquals("/leasehold" + spoolPath, sent.header("ce-source"), "the default source names the spool");
        assertEquals("0", sent.header("Leasehold-Epoch"), "no bus: epoch 0");
        assertEquals("1", sent.header("Leasehold-Attempt"));
        assertEquals("0", sent.header("ce-leaseholdepoch"), "the epoch as a CloudEvents attribute too");
        assertEquals("1", sent.header("ce-leaseholdattempt"));
        assertEquals(passAt, java.time.Instant.parse(sent.header("ce-time")), "when the attempt began, by the clock");
    }

    @Test
    void aStaleEpochCountsAnAttemptAndIsRetriedAfterBackoff() throws IOException {
        String id = SpoolFixture.uniqueId("fenced");
        enqueue(id, "x".getBytes());
        receiver.sawEpoch(5); // a newer lease holder has been served: epoch 0 is stale

        given().queryParam("budget", "20s").when().post("/drain").then().statusCode(200)
                .body("claimed", equalTo(1)).body("done", equalTo(0)).body("failed", equalTo(0))
                .body("retried", equalTo(1)).body("handedBack", equalTo(0)).body("idle", equalTo(true));

        // docs/handlers.md: parked for a retry with backoff, the refusal counted as attempt 1, never handed back.
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.DONE, SpoolFolder.FAILED);
        ClaimName parked = ClaimName.parse(SpoolFixture.names(layout, SpoolFolder.CLAIMED).get(0)).orElseThrow();
        assertEquals(1, parked.generation().attempt());
        assertEquals("refused as stale 1 time; last: receiver refused epoch 0 as stale (HTTP 409: epoch 0 is below 5)",
                spool.record(id, parked.generation()).map(AttemptRecord::text).orElseThrow());
        assertEquals(1, receiver.all(id).size(), "tried once in that pass, not again and again");

        receiver.forgetEpochs(); // the receiver now accepts epoch 0 again
        clock.set(terms.takeableAt(parked)); // the backoff has passed
        given().queryParam("budget", "20s").when().post("/drain").then().statusCode(200)
                .body("tookOver", equalTo(1)).body("done", equalTo(1));

        assertEquals(List.of(id), SpoolFixture.names(layout, SpoolFolder.DONE));
        List<HttpReceiver.Received> tries = receiver.all(id);
        assertEquals(2, tries.size());
        assertEquals("2", tries.get(1).header("Leasehold-Attempt"), "the refused try counted an attempt");
    }

    @Test
    void anAnswerSlowerThanTheTimeoutIsCancelledAndRetried() throws IOException {
        String id = SpoolFixture.uniqueId("slow");
        enqueue(id, "wait".getBytes());

        // The handler's timeout is a timer of the driven clock: it falls when the test moves time on.
        java.util.concurrent.CompletableFuture<io.restassured.response.Response> pass =
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> given().queryParam("budget", "20s").when().post("/drain"));
        Await.until("the request arrives at the receiver", WAIT, () -> receiver.holds(id));
        clock.advance(Duration.ofMillis(999));
        assertTrue(receiver.holds(id) && !pass.isDone(), "not timed out a millisecond before the timeout");
        clock.advance(Duration.ofMillis(1));
        pass.join().then().statusCode(200)
                .body("claimed", equalTo(1)).body("retried", equalTo(1)).body("done", equalTo(0));

        Await.until("the receiver sees the timed-out request's connection closed", WAIT,
                () -> receiver.closedWhileHeld(id));
        List<String> claimed = SpoolFixture.names(layout, SpoolFolder.CLAIMED);
        assertEquals(1, claimed.size());
        ClaimName parked = ClaimName.parse(claimed.get(0)).orElseThrow();
        assertEquals(id, parked.id());
        assertEquals(1, parked.generation().attempt());
        assertEquals("timed out after 1s", parkedReason(id));
    }
}
