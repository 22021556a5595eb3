package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.health.DrainReadiness;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.testing.Await;
import io.leasehold.testing.LogCapture;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every failure inside an attempt is an outcome with its real reason, and a holder alive to settle a
 * claim never lets it expire: errors of handlers, of the payload read and of the settlement itself,
 * with time driven by the test.
 */
class DrainErrorTest extends SpoolTestBase {

    static final Supplier<Throwable> NO_SPACE = () -> new IOException("No space left on device");

    FaultySpool faults;

    Instance faulty(int maxAttempts) {
        Instance instance = new Instance(layout, T0, maxAttempts, true, ArrivalWatch.NONE,
                real -> faults = new FaultySpool(real));
        instances.add(instance);
        return instance;
    }

    ClaimName onlyClaim() throws IOException {
        List<ClaimName> claims = claims();
        assertEquals(1, claims.size(), "claims: " + claims);
        return claims.get(0);
    }

    /** Waits until the item is parked for attempt {@code attempt}'s retry, then lets the backoff pass. */
    void parkedThenDue(Instance instance, String id, int attempt) throws IOException {
        Await.until(id + " parked", WAIT, () -> instance.events.count("settled:" + id + ":retried") == attempt
                && instance.drainer.claimsHeld() == 0);
        ClaimName parked = onlyClaim();
        assertEquals(attempt, parked.generation().attempt());
        instance.clock.set(Instance.TERMS.takeableAt(parked));
        instance.poll();
    }

    static Stream<Throwable> thrownByABrokenBean() {
        return Stream.of(new StackOverflowError("too deep"), new OutOfMemoryError("Java heap space"),
                new IllegalStateException("not configured"));
    }

    @ParameterizedTest
    @MethodSource("thrownByABrokenBean")
    void aHandlerThatThrowsSynchronouslyIsRetriedWithWhatItThrewAndFailsAtMaxAttempts(Throwable thrown)
            throws IOException {
        Instance instance = instance(T0, 2, true);
        instance.handler.throwing = thrown;
        enqueue("broken");
        instance.poll();
        parkedThenDue(instance, "broken", 1);
        // The settled event comes after the whole move (a link into failed/, then the claim's unlink).
        Await.until("failed at max attempts", WAIT, () -> instance.events.count("settled:broken:failed") == 1);
        assertTrue(settledIn(SpoolFolder.FAILED, "broken"));
        assertEquals("gave up after 2 attempts; last: handler failed: " + thrown, reason(instance, "broken"));
        assertEquals(List.of(1, 2), instance.handler.startedAttempts("broken"));
        assertEquals(0, instance.events.count("lost:broken"));
        assertTrue(claims().isEmpty());
    }

    @Test
    void aFailedUniIsRetriedWithItsError() throws IOException {
        Instance instance = instance(T0, 3, true);
        enqueue("failing");
        instance.poll();
        instance.handler.awaitStarted("failing", 1);
        instance.handler.fail("failing", new IOException("connection reset by peer"));
        Await.until("parked", WAIT, () -> instance.events.count("settled:failing:retried") == 1);
        assertEquals("handler failed: java.io.IOException: connection reset by peer", reason(instance, "failing"));
        assertEquals(1, onlyClaim().generation().attempt());
    }

    static Stream<Throwable> readErrors() {
        return Stream.of(new IOException("Input/output error"), new OutOfMemoryError("Java heap space"));
    }

    @ParameterizedTest
    @MethodSource("readErrors")
    void aPayloadThatCannotBeReadIsRetriedWithTheReadErrorAndRunsOnceReadable(Throwable error) throws IOException {
        Instance instance = faulty(3);
        faults.failNext("payload", 1, () -> error);
        enqueue("unreadable", "the payload");
        instance.poll();
        Await.until("parked", WAIT, () -> instance.events.count("settled:unreadable:retried") == 1);
        assertEquals("could not read the payload: " + error, reason(instance, "unreadable"));
        assertTrue(instance.handler.started.isEmpty(), "no handler ran without its payload");

        parkedThenDue(instance, "unreadable", 1);
        assertEquals("the payload", new String(instance.handler.awaitStarted("unreadable", 2).payload()));
        instance.handler.finish("unreadable", Outcome.done());
        Await.until("done", WAIT, () -> settledIn(SpoolFolder.DONE, "unreadable"));
    }

    /**
     * The spool not answering while the payload is read (NATS restarting) is not the item's fault: the
     * claim goes back to pending/ with no attempt counted, and the item runs at attempt 1 once readable.
     */
    @Test
    void aPayloadUnreadableAsTheSpoolDidNotAnswerIsHandedBackWithoutCountingAnAttempt() throws IOException {
        Instance instance = faulty(3);
        faults.failNext("payload", 1, () -> new io.leasehold.spool.ItemStore.SpoolUnavailableException(
                "reading blip: NATS is not reachable now", null));
        enqueue("blip", "the payload");
        instance.poll();
        Await.until("handed back", WAIT, () -> instance.events.count("settled:blip:handed-back") == 1
                && instance.drainer.claimsHeld() == 0);
        assertTrue(instance.handler.started.isEmpty(), "no handler ran without its payload");
        instance.poll();
        assertEquals("the payload", new String(instance.handler.awaitStarted("blip", 1).payload()),
                "attempt 1 still: nothing was counted");
        instance.handler.finish("blip", Outcome.done());
        Await.until("done", WAIT, () -> settledIn(SpoolFolder.DONE, "blip"));
    }

    /** A settlement tried again on the renewal tick logs its lines in the item's context, as on its worker. */
    @Test
    void aSettlementRetriedOnTheRenewalTickLogsInTheItemsContext() throws IOException {
        Instance holder = faulty(5);
        faults.failNext("settle", 1, NO_SPACE);
        firstSettlementFails(holder, "bad", Outcome.failed("bad input"));
        try (LogCapture log = LogCapture.of(Settlement.class.getName())) {
            holder.clock.advance(Duration.ofSeconds(40)); // a renewal, then the settlement's next try
            Await.until("failed", WAIT, () -> settledIn(SpoolFolder.FAILED, "bad"));
            Map<String, String> mdc = log.mdcOf("failed for good");
            assertEquals("bad", mdc.get("itemId"), mdc.toString());
            assertEquals("1", mdc.get("attempt"), mdc.toString());
        }
    }

    @Test
    void aSettlementThatCannotBeWrittenKeepsTheClaimHeldAndRenewedUntilALaterTrySettlesIt() throws IOException {
        Instance holder = faulty(5);
        Instance other = instance(T0);
        // Five failures at 40 s renewals: longer than the 130 s after which an unrenewed claim is taken.
        faults.failNext("settle", 5, NO_SPACE);
        firstSettlementFails(holder, "full", Outcome.done());
        assertEquals(1, holder.drainer.claimsHeld(), "still held");
        assertEquals(1, holder.drainer.settlementsWaiting());
        HealthCheckResponse ready = new DrainReadiness(holder.drainer).call();
        assertEquals(HealthCheckResponse.Status.DOWN, ready.getStatus(), "readiness shows it");
        assertEquals(1L, ready.getData().orElseThrow().get("settlementsWaiting"));

        for (int tick = 1; tick <= 5; tick++) {
            holder.clock.advance(Duration.ofSeconds(40)); // a renewal, then the next try of the settlement
            other.clock.advance(Duration.ofSeconds(40));
            other.poll();
            if (tick < 5) {
                ClaimName claim = onlyClaim();
                assertEquals(holder.clock.now(), claim.reading(), "renewed while its settlement waits");
                assertEquals(1, claim.generation().attempt());
            }
        }
        Await.until("done at the fifth try after the first", WAIT, () -> settledIn(SpoolFolder.DONE, "full"));
        assertEquals(5, faults.failures("settle"));
        assertEquals(1, holder.events.count("settled:full:done"));
        assertEquals(0, holder.events.count("lost:full"));
        assertTrue(other.handler.started.isEmpty(), "never taken over: its holder was alive to settle it");
        assertEquals(0, holder.drainer.claimsHeld());
        assertEquals(0, holder.drainer.settlementsWaiting());
        assertEquals(HealthCheckResponse.Status.UP, new DrainReadiness(holder.drainer).call().getStatus());
        assertEquals(List.of(1), holder.handler.startedAttempts("full"), "the work ran once");
    }

    @Test
    void aFullDiskWhileRecordingTheReasonParksTheRetryLaterWithTheRealReason() throws IOException {
        Instance instance = faulty(5);
        faults.failNext("writeRecord", 1, NO_SPACE);
        firstSettlementFails(instance, "busy", Outcome.retry("exit 75: database is busy"));
        assertEquals(0, instance.events.count("settled:busy:retried"));

        Instant renewedAt = instance.clock.now().plus(Duration.ofSeconds(40));
        instance.clock.advance(Duration.ofSeconds(40));
        Await.until("parked at the next try", WAIT, () -> instance.events.count("settled:busy:retried") == 1);
        assertEquals("exit 75: database is busy", reason(instance, "busy"));
        ClaimName parked = onlyClaim();
        assertEquals(1, parked.generation().attempt());
        assertTrue(Instance.TERMS.takeableAt(parked).isAfter(renewedAt), "backoff counted from the parking");
    }

    @Test
    void aSettlementStillWaitingAtShutdownIsTriedOnceMoreBeforeAnythingIsHandedBack() throws IOException {
        Instance instance = faulty(5);
        faults.failNext("settle", 1, () -> new IllegalStateException("a bug in a settle path"));
        firstSettlementFails(instance, "late", Outcome.done());

        instance.drainer.stop();
        assertTrue(settledIn(SpoolFolder.DONE, "late"), "settled, not handed back to run again");
        assertEquals(0, instance.events.count("handedBack:late"));
        assertTrue(claims().isEmpty());
    }

    /** {@code id} enqueued, claimed and worked by {@code holder}, its outcome {@code outcome}, whose first settlement fails (a fault set before). */
    private void firstSettlementFails(Instance holder, String id, Outcome outcome) throws IOException {
        enqueue(id);
        holder.poll();
        holder.handler.awaitStarted(id, 1);
        holder.handler.finish(id, outcome);
        Await.until("the first settlement of " + id + " failed", WAIT, () -> holder.events.count("settleFailed:" + id) == 1);
    }
}
