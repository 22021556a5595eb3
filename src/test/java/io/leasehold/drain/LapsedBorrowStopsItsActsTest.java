package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.testing.Await;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A waiting instance in claims mode acts under the holder's epoch while it sees it renew; when that
 * borrowing lapses, the lease's timer stops every attempt under the epoch at once, touching no file,
 * and the drain goes on (issue 24). The stopped claims go back to pending/ afterwards, from another thread.
 */
class LapsedBorrowStopsItsActsTest extends SpoolTestBase {

    /** Runs {@code stop} on a thread of its own, as the lease's timer does, and waits for it to end. */
    private static void onTheLeaseTimer(Runnable stop) throws InterruptedException {
        Thread timer = new Thread(stop, "lease-timer");
        timer.start();
        timer.join(WAIT.toMillis());
        assertFalse(timer.isAlive(), "the stop returns at once");
    }

    @Test
    void onlyTheLapsedEpochsAttemptsStopAndTheirSlotsGoOnOnAWorker() throws Exception {
        AtomicReference<FaultySpool> hook = new AtomicReference<>();
        Instance a = instanceWith(hook);
        enqueue("x");
        a.poll();
        a.handler.awaitStarted("x", 1); // under epoch 7
        a.gate.epoch = 8; // a newer holder's epoch is lent now
        enqueue("y");
        enqueue("w"); // listed with y: one of them gets the free slot, the other waits
        a.poll();
        Await.until("y or w starts under epoch 8", WAIT, () -> a.handler.started.size() == 2);
        String second = a.handler.started.get(1).id();
        String third = second.equals("y") ? "w" : "y";
        AtomicInteger handBacks = new AtomicInteger();
        hook.get().beforeHandBack = claim -> handBacks.incrementAndGet();

        onTheLeaseTimer(() -> a.drainer.stopActsUnder(7));

        assertEquals(Set.of("x"), Set.copyOf(a.handler.cancelled), "x ran under 7; " + second + " under 8 runs on");
        assertEquals(0, handBacks.get(), "no hand-back on the lease's timer");
        a.handler.awaitStarted(third, 1);
        assertNotEquals("lease-timer", a.handler.calledOn.get(third), "the freed slot goes on on a worker");
        a.drainer.handBackStopped();
        assertTrue(settledIn(SpoolFolder.PENDING, "x"), "x goes back to pending/ for whoever acts next");
        assertEquals(1, handBacks.get());
        assertEquals(2, a.drainer.claimsHeld(), "y and w are still held and run");
    }

    @Test
    void anAttemptWhoseHandlerAnsweredIsSettledNotStopped() throws Exception {
        AtomicReference<FaultySpool> hook = new AtomicReference<>();
        Instance a = instanceWith(hook);
        enqueue("x");
        a.poll();
        a.handler.awaitStarted("x", 1);
        CountDownLatch settling = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        hook.get().beforeSettleDone = claim -> {
            settling.countDown();
            try {
                goOn.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        a.handler.finish("x", Outcome.done());
        assertTrue(settling.await(30, TimeUnit.SECONDS), "the settlement is under way");

        onTheLeaseTimer(() -> a.drainer.stopActsUnder(7));
        assertEquals(1, a.drainer.claimsHeld(), "still held, by its settlement");
        goOn.countDown();

        Await.until("x is settled in done/", WAIT, () -> settledIn(SpoolFolder.DONE, "x"));
        assertEquals(Set.of(), Set.copyOf(a.handler.cancelled), "its act was over: nothing to stop");
        a.drainer.handBackStopped();
        assertFalse(settledIn(SpoolFolder.PENDING, "x"), "never handed back to run again");
    }

    /**
     * From a review: a handler that answers inline (here it throws) is settled inside the attempt's start,
     * before the run had published its attempt; the stop took that for a run still in its look, ended it,
     * and the outcome then waited to be written for a claim nobody renewed any more.
     */
    @Test
    void anOutcomeDecidedInlineAndBeingWrittenIsNeitherStoppedNorLeftUnrenewed() throws Exception {
        AtomicReference<FaultySpool> hook = new AtomicReference<>();
        Instance a = instanceWith(hook);
        CountDownLatch inSettle = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        hook.get().failNext("writeRecord", 1, () -> { // the inline settlement's first write, on the lane
            inSettle.countDown();
            try {
                goOn.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new IOException("No space left on device");
        });
        a.handler.throwing = new RuntimeException("boom"); // decided inside the attempt's start: retry
        enqueue("x");
        Thread poll = new Thread(a::poll);
        poll.start();
        assertTrue(inSettle.await(30, TimeUnit.SECONDS), "x's outcome is being written, inline");

        onTheLeaseTimer(() -> a.drainer.stopActsUnder(7));
        goOn.countDown();
        poll.join(WAIT.toMillis());

        Await.until("the outcome waits to be written", WAIT, () -> a.drainer.settlementsWaiting() == 1);
        assertEquals(1, a.drainer.claimsHeld(), "held and renewed while its outcome waits");
        a.drainer.handBackStopped();
        assertFalse(settledIn(SpoolFolder.PENDING, "x"), "its outcome is known: never handed back to run again");
    }

    @Test
    void anOutcomeWaitingToBeWrittenIsKeptNotHandedBack() throws Exception {
        AtomicReference<FaultySpool> hook = new AtomicReference<>();
        Instance a = instanceWith(hook);
        enqueue("x");
        a.poll();
        a.handler.awaitStarted("x", 1);
        hook.get().failNext("settle", 1, () -> new IOException("No space left on device"));
        a.handler.finish("x", Outcome.done());
        Await.until("the settlement failed and waits", WAIT, () -> a.drainer.settlementsWaiting() == 1);

        onTheLeaseTimer(() -> a.drainer.stopActsUnder(7));
        a.drainer.handBackStopped();

        assertFalse(settledIn(SpoolFolder.PENDING, "x"), "its outcome is known: handing it back would run it again");
        a.clock.pass(java.time.Duration.ofSeconds(9)); // past the settlement's backoff (1 s, jittered)
        a.renew(); // the renewal tick tries it again
        Await.until("x is settled in done/", WAIT, () -> settledIn(SpoolFolder.DONE, "x"));
    }
}
