package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.spool.Anomaly;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.LogCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retries, poison items, garbage in the spool, shutdown and drain passes, with time driven by the test. */
class DrainFailureTest extends SpoolTestBase {

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeCaptures() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    /** Every permanent failure leaves one WARN line naming the item, its attempts and its reason. */
    private static void assertFailureLogged(LogCapture log, String line) {
        Await.until("logged at WARN: " + line, WAIT, () -> log.linesAtLeast(Level.WARNING).contains(line));
    }

    @Test
    void aRetryableFailureComesBackAfterBackoffAndGivesUpAtMaxAttempts() throws IOException {
        LogCapture log = LogCapture.of("io.leasehold.drain");
        closing.add(log);
        Instance instance = instance(T0, 2, true);
        enqueue("flaky");
        instance.poll();
        instance.handler.awaitStarted("flaky", 1);
        instance.handler.finish("flaky", Outcome.retry("exit 75: busy"));
        Await.until("parked for a retry", WAIT, () -> instance.events.count("settled:flaky:retried") == 1);

        ClaimName parked = claims().get(0);
        Instant retryAt = Instance.TERMS.takeableAt(parked);
        assertEquals(1, parked.generation().attempt());
        assertTrue(!retryAt.isBefore(T0.plusMillis(500)) && !retryAt.isAfter(T0.plusSeconds(1)),
                "backoff after attempt 1 is within [0.5 s, 1 s]: " + retryAt);

        instance.clock.set(retryAt.minusMillis(1));
        instance.poll();
        assertEquals(List.of(1), instance.handler.startedAttempts("flaky"), "not before the backoff has passed");

        instance.clock.set(retryAt);
        instance.poll();
        instance.handler.awaitStarted("flaky", 2);
        instance.handler.finish("flaky", Outcome.retry("exit 75: still busy"));
        // The settled event comes after the whole move (a link into failed/, then the claim's unlink).
        Await.until("failed after max attempts", WAIT, () -> instance.events.count("settled:flaky:failed") == 1);
        assertTrue(settledIn(SpoolFolder.FAILED, "flaky"));
        assertEquals("gave up after 2 attempts; last: exit 75: still busy", reason(instance, "flaky"));
        assertTrue(claims().isEmpty());
        assertFailureLogged(log, "item flaky failed for good after 2 attempts: gave up after 2 attempts; last: exit 75: "
                + "still busy");
    }

    @Test
    void aPoisonItemThatKillsEveryHolderEndsInFailedWhileOtherItemsFlow() throws IOException {
        LogCapture log = LogCapture.of("io.leasehold.drain");
        closing.add(log);
        enqueue("poison");
        Instant now = T0;
        for (int attempt = 1; attempt <= 3; attempt++) {
            // Each holder dies mid-work: nobody ticks its clock again.
            Instance victim = instance(now, 3, true);
            victim.poll();
            victim.handler.awaitStarted("poison", attempt);
            now = now.plus(Instance.TAKEABLE_AFTER);
        }
        Instance survivor = instance(now, 3, true);
        enqueue("good");
        survivor.poll();
        survivor.handler.awaitStarted("good", 1);
        Await.until("poison fails", WAIT, () -> Files.exists(layout.file(SpoolFolder.FAILED, "poison")));
        assertFalse(survivor.handler.startedAttempts("poison").contains(4), "no fourth attempt");
        assertEquals("abandoned 3 times", reason(survivor, "poison"));
        assertFailureLogged(log, "item poison failed for good after 3 attempts: abandoned 3 times");

        survivor.handler.finish("good", Outcome.done());
        Await.until("the rest of the spool keeps flowing", WAIT,
                () -> Files.exists(layout.file(SpoolFolder.DONE, "good")));
    }

    @Test
    void aPermanentFailureSettlesInFailedWithItsReason() throws IOException {
        LogCapture log = LogCapture.of("io.leasehold.drain");
        closing.add(log);
        Instance instance = instance(T0, 5, true);
        enqueue("bad");
        instance.poll();
        instance.handler.awaitStarted("bad", 1);
        instance.handler.finish("bad", Outcome.failed("exit 2: no such table"));
        Await.until("failed", WAIT, () -> instance.events.count("settled:bad:failed") == 1);
        assertTrue(Files.exists(layout.file(SpoolFolder.FAILED, "bad")));
        assertEquals("exit 2: no such table", reason(instance, "bad"));
        assertFailureLogged(log, "item bad failed for good after 1 attempt: exit 2: no such table");
    }

    @Test
    void garbageInTheSpoolIsLeftAloneReportedAndNeverStopsTheDrain() throws IOException {
        Path outside = dir.resolve("outside-secret");
        Files.writeString(outside, "not an item");
        Files.writeString(layout.file(SpoolFolder.PENDING, "bad~name"), "x");
        Files.writeString(layout.file(SpoolFolder.PENDING, ".hidden"), "x");
        Files.createSymbolicLink(layout.file(SpoolFolder.PENDING, "link"), outside);
        Files.createDirectory(layout.file(SpoolFolder.PENDING, "adir"));
        Files.writeString(layout.file(SpoolFolder.CLAIMED, "junk"), "x");
        Files.writeString(layout.file(SpoolFolder.CLAIMED, "a~1-x~notatime"), "x");
        enqueue("real");

        Instance instance = instance(T0, 5, true);
        instance.poll();
        instance.handler.awaitStarted("real", 1);
        instance.poll(); // a second scan meets the same junk again and still does not stumble
        instance.handler.finish("real", Outcome.done());
        Await.until("the real item is done", WAIT, () -> Files.exists(layout.file(SpoolFolder.DONE, "real")));

        List<String> reported = instance.anomalies.list().stream().map(a -> a.folder() + "/" + a.name()).sorted()
                .toList();
        assertEquals(List.of("claimed/a~1-x~notatime", "claimed/junk", "pending/.hidden", "pending/adir",
                "pending/bad~name", "pending/link"), reported);
        assertTrue(instance.anomalies.list().stream().map(Anomaly::problem).anyMatch(p -> p.contains("symbolic link")));
        assertTrue(Files.isSymbolicLink(layout.file(SpoolFolder.PENDING, "link")), "left where it was");
        assertTrue(Files.isDirectory(layout.file(SpoolFolder.PENDING, "adir")));
        assertEquals("not an item", Files.readString(outside), "never followed, never moved");
        assertEquals(1, instance.handler.started.size(), "only the real item ran");
    }

    @Test
    void shutdownHandsUnfinishedClaimsBackWithoutCountingAnAttempt() throws IOException {
        Instance stopping = instance(T0, 5, true);
        enqueue("long");
        stopping.poll();
        stopping.handler.awaitStarted("long", 1);
        stopping.drainer.stop(); // shutdown timeout is zero: no waiting
        stopping.handler.awaitCancelled("long");
        assertTrue(Files.exists(layout.file(SpoolFolder.PENDING, "long")), "back in pending/ at once");
        assertTrue(claims().isEmpty());
        assertEquals(1, stopping.events.count("handedBack:long"));

        Instance next = instance(T0.plusSeconds(1), 5, true);
        next.poll();
        next.handler.awaitStarted("long", 1);
    }

    @Test
    void aDrainPassWorksUntilIdleAndReportsWhatItDid() throws Exception {
        Instance passive = instance(T0, 5, false);
        enqueue("p1");
        enqueue("p2");
        enqueue("p3");
        assertTrue(passive.handler.started.isEmpty(), "nothing is claimed outside a pass");

        var pass = passive.drainer.drainPass(Duration.ofSeconds(30)).subscribeAsCompletionStage();
        // Two run at once (concurrency 2), in an order the drain chooses: finish whichever runs.
        java.util.Set<String> finished = new java.util.HashSet<>();
        while (finished.size() < 3) {
            String next = Await.value("another item starts", WAIT, () -> passive.handler.started.stream()
                    .map(w -> w.id()).filter(id -> !finished.contains(id)).findFirst(), java.util.Optional::isPresent)
                    .orElseThrow();
            passive.handler.awaitStarted(next, 1);
            passive.handler.finish(next, Outcome.done());
            finished.add(next);
        }
        DrainReport report = pass.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(report.idle());
        assertEquals(3, report.claimed());
        assertEquals(3, report.done());
        assertEquals(0, report.failed());

        enqueue("after");
        passive.clock.advance(Duration.ofMinutes(5));
        assertTrue(passive.handler.startedAttempts("after").isEmpty(), "the pass is over: nothing more is claimed");
    }

    @Test
    void aDrainPassStopsAtItsBudget() throws Exception {
        Instance passive = instance(T0, 5, false);
        enqueue("slow");
        DrainReport report = passive.drainer.drainPass(Duration.ofMillis(300)).await().atMost(WAIT);
        assertFalse(report.idle(), "the work outlasted the budget");
        assertEquals(1, report.claimed());
        assertEquals(0, report.done());
    }

    @Test
    void anActTheGateRefusesIsHandedBackWithoutCountingAnAttempt() throws IOException {
        // The directory watch reports the hand-back into pending/ at once: it must not be claimed again.
        Instance instance = new Instance(layout, T0, 5, true, new io.leasehold.directory.NioArrivalWatch(layout));
        instances.add(instance);
        instance.gate.refusal = "the controller lease was lost";
        enqueue("fenced");
        instance.poll();
        Await.until("handed back", WAIT, () -> instance.events.count("settled:fenced:handed-back") == 1
                && Files.exists(layout.file(SpoolFolder.PENDING, "fenced")) && instance.drainer.claimsHeld() == 0);
        assertEquals(1, instance.events.count("claimed:fenced"), "not claimed again before the next poll tick");
        instance.poll();
        Await.until("tried once more at the next poll", WAIT,
                () -> instance.events.count("settled:fenced:handed-back") == 2);
        instance.gate.claiming = false;
        Await.until("back in pending/", WAIT, () -> Files.exists(layout.file(SpoolFolder.PENDING, "fenced"))
                && instance.drainer.claimsHeld() == 0);
        assertTrue(instance.handler.started.isEmpty(), "no handler ran under a refused epoch");

        instance.gate.refusal = null;
        instance.gate.claiming = true;
        instance.poll();
        assertEquals(7L, instance.handler.awaitStarted("fenced", 1).epoch(), "still attempt 1, with the gate's epoch");
    }

    /**
     * The same race made certain: the watch reports the hand-back while its move returns (on the very
     * thread that made it) and again once the claim is let go, then reports a sentinel item. Candidates are
     * taken in arrival order, so once the sentinel is claimed the fill has looked at the handed-back item
     * after the claim was let go: it must have left it for the lease holder.
     */
    @Test
    void aHandBackTheWatchReportsIsNotClaimedAgainBeforeTheNextPoll() throws IOException {
        CapturedWatch watch = new CapturedWatch();
        FaultySpool[] faulty = new FaultySpool[1];
        Instance instance = new Instance(layout, T0, 5, true, watch, real -> faulty[0] = new FaultySpool(real));
        instances.add(instance);
        enqueue("fenced");
        faulty[0].afterHandBack = claim -> watch.report(claim.id());
        instance.gate.refusal = "the controller lease was lost";
        instance.poll();
        Await.until("handed back and let go", WAIT, () -> instance.events.count("settled:fenced:handed-back") == 1
                && instance.drainer.claimsHeld() == 0);
        enqueue("zz-sentinel");
        watch.report("fenced");
        watch.report("zz-sentinel");
        Await.until("the sentinel claimed", WAIT, () -> instance.events.count("claimed:zz-sentinel") == 1);
        assertEquals(1, instance.events.count("claimed:fenced"), "not claimed again before the next poll tick");
        instance.poll();
        Await.until("tried again at the next poll", WAIT, () -> instance.events.count("claimed:fenced") == 2);
    }

    /** A watch whose reports the test makes, on the thread it chooses. */
    private static final class CapturedWatch implements io.leasehold.spool.ArrivalWatch {
        private volatile java.util.function.Consumer<String> arrived = name -> { };

        @Override
        public boolean start(java.util.function.Consumer<String> arrived, Runnable missed) {
            this.arrived = arrived;
            return true;
        }

        void report(String name) {
            arrived.accept(name);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void nothingIsClaimedWhileTheGateSaysNot() throws IOException {
        Instance instance = instance(T0, 5, true);
        instance.gate.claiming = false;
        enqueue("later");
        instance.clock.advance(Duration.ofMinutes(3));
        assertTrue(Files.exists(layout.file(SpoolFolder.PENDING, "later")));
        assertTrue(instance.handler.started.isEmpty());
    }

    @Test
    void aDrainPassTakesOverClaimsLeftByAnInstanceThatWasScaledAway() throws Exception {
        Instance scaledAway = instance(T0);
        enqueue("orphan");
        scaledAway.poll();
        scaledAway.handler.awaitStarted("orphan", 1); // then it vanishes: nobody ticks it again

        Instance nextPass = instance(T0.plus(Instance.TAKEABLE_AFTER), 5, false);
        var pass = nextPass.drainer.drainPass(Duration.ofSeconds(30)).subscribeAsCompletionStage();
        nextPass.handler.awaitStarted("orphan", 2);
        nextPass.handler.finish("orphan", Outcome.done());
        DrainReport report = pass.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(1, report.tookOver());
        assertEquals(1, report.done());
        assertTrue(report.idle());
        assertTrue(settledIn(SpoolFolder.DONE, "orphan"));
    }
}
