package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Outcome;
import io.leasehold.testing.Await;
import io.leasehold.testing.FreePorts;
import io.leasehold.testing.HttpReceiver;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.ext.web.client.WebClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The http handler against a real local receiver, on a Vert.x instance of the test's own. */
class HttpHandlerTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static HttpReceiver receiver;
    static Vertx vertx;
    static WebClient client;

    @BeforeAll
    static void start() throws Exception {
        receiver = HttpReceiver.start();
        vertx = Vertx.vertx();
        client = WebClient.create(vertx);
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        vertx.closeAndAwait();
        receiver.close();
    }

    /** When the attempts of these tests began: sent as ce-time. */
    static final Instant STARTED = Instant.parse("2026-12-01T18:00:00.123456Z");

    static HttpHandler handler(String url) {
        return new HttpHandler(client, new HttpHandler.Target(url, "/leasehold/test-spool", "io.leasehold.item",
                "application/octet-stream"));
    }

    static Outcome post(String id, long epoch) {
        return handler(receiver.url("/events")).handle(new WorkItem(id, 1, new byte[] {1, 2}, epoch, STARTED))
                .await().atMost(WAIT);
    }

    @Test
    void sendsABinaryModeCloudEventWithTheEpochAndAttemptAndTheBodyExactly() {
        byte[] payload = new byte[300];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i; // every byte value, 0x00 and invalid UTF-8 included
        }
        Outcome outcome = handler(receiver.url("/events/in?x=1"))
                .handle(new WorkItem("item-7", 3, payload, 42, STARTED)).await().atMost(WAIT);

        assertEquals(Outcome.done(), outcome);
        HttpReceiver.Received got = receiver.last("item-7").orElseThrow();
        assertEquals("POST", got.method());
        assertEquals("/events/in", got.path());
        assertEquals("1.0", got.header("ce-specversion"));
        assertEquals("item-7", got.header("ce-id"));
        assertEquals("/leasehold/test-spool", got.header("ce-source"));
        assertEquals("io.leasehold.item", got.header("ce-type"));
        assertEquals("application/octet-stream", got.header("Content-Type"));
        assertEquals("42", got.header("Leasehold-Epoch"));
        assertEquals("3", got.header("Leasehold-Attempt"));
        // The same as CloudEvents extension attributes: a broker or channel forwards ce-* and drops the rest.
        assertEquals("42", got.header("ce-leaseholdepoch"));
        assertEquals("3", got.header("ce-leaseholdattempt"));
        assertEquals("2026-12-01T18:00:00.123456Z", got.header("ce-time"));
        assertEquals("300", got.header("Content-Length"));
        assertArrayEquals(payload, got.body());
    }

    @Test
    void typeAndContentTypeAreTheConfiguredOnes() {
        HttpHandler handler = new HttpHandler(client, new HttpHandler.Target(receiver.url("/"), "urn:spool:a",
                "com.example.order", "application/json"));
        Outcome outcome = handler.handle(new WorkItem("typed-1", 1, "{\"a\":1}".getBytes(), 0, STARTED)).await().atMost(WAIT);

        assertEquals(Outcome.done(), outcome);
        HttpReceiver.Received got = receiver.last("typed-1").orElseThrow();
        assertEquals("com.example.order", got.header("ce-type"));
        assertEquals("urn:spool:a", got.header("ce-source"));
        assertEquals("application/json", got.header("Content-Type"));
        assertEquals("0", got.header("Leasehold-Epoch"));
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 202, 299})
    void anyTwoHundredIsDone(int status) {
        assertEquals(Outcome.done(), post("s" + status + "-ok", 0));
    }

    @ParameterizedTest
    @ValueSource(ints = {429, 500, 502, 503})
    void tooManyRequestsAndServerErrorsAreRetriedWithTheStatus(int status) {
        String id = "s" + status + "-busy";
        assertEquals(Outcome.retry("HTTP " + status + ": answer " + status + " for " + id), post(id, 0));
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 410, 422})
    void otherClientErrorsFailWithTheStatusAndTheStartOfTheBody(int status) {
        String id = "s" + status + "-refused";
        assertEquals(Outcome.failed("HTTP " + status + ": answer " + status + " for " + id), post(id, 0));
    }

    @Test
    void onlyTheStartOfALongRefusalBodyIsKept() {
        Outcome.Failed failed = assertInstanceOf(Outcome.Failed.class, post("s400-long", 0));
        assertTrue(failed.reason().startsWith("HTTP 400: answer 400 for s400-long xxx"), failed.reason());
        assertEquals("HTTP 400: ".length() + HttpHandler.BODY_START_CHARS + 1, failed.reason().length(),
                "cut to the start, with an ellipsis");
    }

    @Test
    void aConflictMeansTheEpochWasRefusedAsStale() {
        Outcome outcome = post("s409-conflict", 12);
        assertEquals(Outcome.stale("receiver refused epoch 12 as stale (HTTP 409: answer 409 for s409-conflict)"),
                outcome);
    }

    @Test
    void aReceiverThatRemembersTheHighestEpochRefusesOlderOnes() {
        receiver.forgetEpochs();
        assertEquals(Outcome.done(), post("fenced-a", 7));
        assertEquals(Outcome.stale("receiver refused epoch 6 as stale (HTTP 409: epoch 6 is below 7)"),
                post("fenced-b", 6));
        assertEquals(Outcome.done(), post("fenced-c", 7));
        assertEquals(Outcome.done(), post("fenced-d", 9));
        assertInstanceOf(Outcome.Stale.class, post("fenced-e", 7));
        assertEquals(9, receiver.highestEpoch());
        assertEquals("6", receiver.last("fenced-b").orElseThrow().header("Leasehold-Epoch"));
    }

    @Test
    void aRefusedConnectionIsRetried() throws IOException {
        int port = FreePorts.take(); // nothing listens there
        Outcome outcome = handler("http://127.0.0.1:" + port + "/events")
                .handle(new WorkItem("nobody-home", 1, new byte[0], 0, STARTED)).await().atMost(WAIT);
        Outcome.Retry retry = assertInstanceOf(Outcome.Retry.class, outcome);
        assertTrue(retry.reason().startsWith("connection refused"), retry.reason());
    }

    @Test
    void aConnectionClosedInsteadOfAnAnswerIsRetried() {
        Outcome.Retry retry = assertInstanceOf(Outcome.Retry.class, post("reset-1", 0));
        assertTrue(retry.reason().startsWith("POST failed: "), retry.reason());
        assertTrue(receiver.last("reset-1").isPresent(), "the request did arrive");
    }

    @Test
    void cancellingTheAttemptClosesTheRequestsConnection() {
        AtomicReference<Outcome> answered = new AtomicReference<>();
        Cancellable running = handler(receiver.url("/events"))
                .handle(new WorkItem("slow-cancelled", 1, new byte[] {9}, 0, STARTED)).subscribe().with(answered::set);
        Await.until("the receiver holds the request", WAIT, () -> receiver.holds("slow-cancelled"));
        assertFalse(receiver.closedWhileHeld("slow-cancelled"), "open while the attempt runs");

        running.cancel();

        Await.until("the receiver sees the connection closed", WAIT,
                () -> receiver.closedWhileHeld("slow-cancelled"));
        assertEquals(null, answered.get(), "a cancelled attempt answers nothing");
        assertEquals(Outcome.done(), post("after-cancel", 0), "the client still works afterwards");
    }

    @Test
    void aTimeoutAsTheDrainAppliesItCancelsTheRequest() {
        // ClaimWork bounds each attempt the same way (leasehold.handler.timeout).
        Outcome outcome = handler(receiver.url("/events")).handle(new WorkItem("slow-timeout", 1, new byte[0], 0, STARTED))
                .ifNoItem().after(Duration.ofMillis(500)).recoverWithItem(() -> Outcome.retry("timed out"))
                .await().atMost(WAIT);

        assertEquals(Outcome.retry("timed out"), outcome);
        assertTrue(receiver.holds("slow-timeout"), "the request had arrived");
        Await.until("the receiver sees the connection closed", WAIT, () -> receiver.closedWhileHeld("slow-timeout"));
    }
}
