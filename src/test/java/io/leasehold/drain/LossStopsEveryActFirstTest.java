package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Losing the lease stops every act before any hand-back or settlement is tried over a connection that
 * may be dead (issue 24: a cut-off holder cancelled one attempt, then waited out a hand-back's request
 * timeout on the dead link before it cancelled the next, whose child ran on past the successor's take).
 */
class LossStopsEveryActFirstTest extends SpoolTestBase {

    private Instance twoRunning(AtomicReference<FaultySpool> hook) throws IOException {
        Instance a = instanceWith(hook);
        enqueue("x");
        enqueue("y");
        a.poll();
        a.handler.awaitStarted("x", 1);
        a.handler.awaitStarted("y", 1);
        return a;
    }

    @Test
    void aHandBackWaitingOnADeadLinkHoldsUpTheStopOfNoOtherAttempt() throws Exception {
        AtomicReference<FaultySpool> hook = new AtomicReference<>();
        Instance a = twoRunning(hook);
        CountDownLatch linkBack = new CountDownLatch(1);
        AtomicInteger handBacks = new AtomicInteger();
        hook.get().beforeHandBack = claim -> {
            handBacks.incrementAndGet();
            try {
                linkBack.await(30, TimeUnit.SECONDS); // the move waits on a link that answers nothing
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };

        Thread lease = new Thread(a.drainer::stopNow, "lease-lost");
        lease.start();
        Await.until("a hand-back waits on the link", WAIT, () -> handBacks.get() == 1);
        Await.until("both attempts are cancelled while it waits", WAIT,
                () -> a.handler.cancelled.containsAll(Set.of("x", "y")));

        linkBack.countDown();
        lease.join(WAIT.toMillis());
        assertFalse(lease.isAlive(), "the stop ends once the link answers");
        assertTrue(settledIn(SpoolFolder.PENDING, "x") && settledIn(SpoolFolder.PENDING, "y"),
                "both are handed back afterwards");
        assertEquals(0, a.drainer.claimsHeld());
    }

    /** What the lease's deadline timer runs at a loss: it must never wait on the spool or the bus. */
    @Test
    void stoppingTheActsMovesNoClaim() throws Exception {
        AtomicReference<FaultySpool> hook = new AtomicReference<>();
        Instance a = twoRunning(hook);
        AtomicInteger handBacks = new AtomicInteger();
        hook.get().beforeHandBack = claim -> handBacks.incrementAndGet();

        a.drainer.stopActs();

        assertEquals(Set.of("x", "y"), Set.copyOf(a.handler.cancelled), "every attempt ended at once");
        assertEquals(0, handBacks.get(), "no hand-back on the lease's thread");
        assertEquals(2, claims().size(), "both still claimed until stopNow hands them back: " + claims());
        a.drainer.stopNow();
        assertTrue(settledIn(SpoolFolder.PENDING, "x") && settledIn(SpoolFolder.PENDING, "y"));
        assertEquals(2, handBacks.get(), "each handed back once");
    }
}
