package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.testing.Await;
import io.leasehold.testing.HttpReceiver;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The http handler's rules (docs/handlers.md) against the packaged jar in no-bus mode, on the real clock: a receiver that answers
 * every attempt with 409 makes each refusal count an attempt, spaced by backoff, and the item ends in
 * failed/ as "refused as stale 3 times" after max-attempts=3, instead of being POSTed forever.
 */
class StaleRefusalIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BACKOFF_INITIAL = Duration.ofSeconds(1);
    private static final Duration POLL = Duration.ofSeconds(1);
    /** Scheduling on two shared cores: a retry may come this much after its backoff and the next poll. */
    private static final Duration SLACK = Duration.ofMillis(1500);

    private HttpReceiver receiver;
    private ServiceProcess service;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = HttpReceiver.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (service != null) {
            service.close();
        }
        receiver.close();
    }

    @Test
    void aReceiverThatAlwaysRefusesTheEpochFailsTheItemAfterMaxAttemptsWithBackoffBetween() throws Exception {
        SharedSpool spool = SharedSpool.create("stale", "true");
        service = ServiceProcess.start("refused", spool.config(Map.of(
                "leasehold.handler", "http",
                "leasehold.handler.http.url", receiver.url("/events"),
                "leasehold.claim.lease", "3s",
                "leasehold.claim.max-skew", "500ms",
                "leasehold.drain.poll-interval", POLL.toSeconds() + "s",
                "leasehold.drain.max-attempts", "3",
                "leasehold.drain.backoff-initial", BACKOFF_INITIAL.toSeconds() + "s",
                "leasehold.drain.backoff-max", "8s")), Map.of()).awaitReady(Duration.ofSeconds(60));

        String id = "s409-always";
        spool.enqueue(id, "refuse me");
        Await.until(id + " is failed", Duration.ofSeconds(30), () -> spool.names("failed").contains(id));
        JsonNode item = JSON.readTree(service.get("/items/" + id));
        assertEquals("failed", item.path("state").asText());
        assertEquals("refused as stale 3 times", item.path("reason").asText());

        List<HttpReceiver.Received> tries = receiver.all(id);
        assertEquals(List.of("1", "2", "3"), tries.stream().map(r -> r.header("Leasehold-Attempt")).toList());
        for (int gap = 1; gap < tries.size(); gap++) {
            // The backoff after attempt n is drawn from [1/2, 1] of initial * 2^(n-1); the claim is taken at the poll after.
            Duration ceiling = BACKOFF_INITIAL.multipliedBy(1L << (gap - 1));
            Duration between = Duration.ofNanos(tries.get(gap).atNanos() - tries.get(gap - 1).atNanos());
            System.out.printf("409 attempts %d and %d were %d ms apart (backoff [%d, %d] ms)%n", gap, gap + 1,
                    between.toMillis(), ceiling.dividedBy(2).toMillis(), ceiling.toMillis());
            assertTrue(between.compareTo(ceiling.dividedBy(2)) >= 0, "attempt " + (gap + 1) + " came after " + between);
            assertTrue(between.compareTo(ceiling.plus(POLL).plus(SLACK)) <= 0,
                    "attempt " + (gap + 1) + " came only after " + between);
        }

        // Another item passing through is the sign that polls went on: the failed one was not POSTed again.
        spool.enqueue("after", "fine");
        Await.until("after is done", Duration.ofSeconds(30), () -> spool.names("done").contains("after"));
        assertEquals(3, receiver.all(id).size(), "settled: never POSTed again");
        // A settlement links into done/ before it unlinks its claim: "after" may still show in claimed/ a moment.
        Await.until("nothing pending or claimed", Duration.ofSeconds(10),
                () -> spool.names("pending").isEmpty() && spool.names("claimed").isEmpty());
    }
}
