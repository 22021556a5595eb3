package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.InMemoryLeaseStore.Call;
import io.leasehold.lease.ScriptedFaults.Gate;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Races and refusals of the lease state machine found by an adversarial review: each failed before its fix. */
class LeaseRacesTest {

    static final LeaseTiming TIMING = LeaseStateMachineTest.TIMING; // 15s / 5s / 10s

    final InMemoryLeaseStore store = new InMemoryLeaseStore();
    final LeaseStateMachineTest.MemoryFloor floor = new LeaseStateMachineTest.MemoryFloor();
    final ExecutorService calls = Executors.newCachedThreadPool();
    final List<ExecutorService> pools = new ArrayList<>();

    @AfterEach
    void stop() {
        calls.shutdownNow();
        pools.forEach(ExecutorService::shutdownNow);
    }

    ExecutorService stepper() {
        ExecutorService s = Executors.newSingleThreadExecutor();
        pools.add(s);
        return s;
    }

    /** A timer thread that is quicker than the step thread: a timer due now runs before timer() returns. */
    static final class EagerTimers extends DrivenClock {
        @Override
        public Timer timer(String name, Duration delay, Runnable task) {
            if (delay.toNanos() <= 0) {
                task.run();
                return () -> { };
            }
            return super.timer(name, delay, task);
        }
    }

    final class Node extends LeaseNode {
        Node(String name, Executor steps, DrivenClock clock) {
            super(store, floor, calls, TIMING, name, steps, clock);
        }

        Node(String name, Executor steps) {
            this(name, steps, new DrivenClock());
        }

        Node(String name) {
            this(name, Runnable::run);
        }
    }

    /**
     * F1a. b has seen a's entry unchanged for a full duration (a is dead): it takes over. While its take
     * is on its way, its gate still hands out a's epoch, which is past a's last renewal + duration. Now
     * the borrowing lapsed long before, on its own timer, with its KILL due before the take.
     */
    @Test
    void aCandidateTakingOverStillActsUnderTheEpochItKnowsIsAbandoned() throws Exception {
        Node a = new Node("a");
        a.step();
        long abandoned = a.lease.epochForAct();

        Node b = new Node("b", stepper());
        b.step(); // first sight at t=0
        b.look();
        a.clock.advance(TIMING.renewEvery()); // a renews once, then is SIGKILLed right after
        a.ticks.close();
        b.look();
        b.step(); // b's candidate sees the renewal too: it may take a full duration from now
        assertEquals(abandoned, b.lease.epochForAct(), "claims mode: seen renewing, acting beside the holder");

        Gate take = store.holdNext(Call.UPDATE); // b's update over a's entry is on its way
        b.clock.advance(TIMING.duration().minusMillis(1));
        assertEquals(1, b.lapses.size(), "unchanged for renew-deadline: no longer lent, on the borrowing's timer");
        assertEquals(abandoned, b.lapses.get(0).epoch());
        assertTrue(b.lapses.get(0).killAtNanos() < b.clock.monotonicNanos(), "its KILL is due before any take");
        assertThrows(ActRefused.class, b.lease::epochForAct, "lapsed: nothing acts under the abandoned epoch");
        b.clock.pass(Duration.ofMillis(1));
        CompletableFuture<Void> step = b.stepAsync();
        take.awaitHeld();
        try {
            // Now t = a.sent + duration: a new holder may act any moment (this very b, once its write lands).
            assertThrows(ActRefused.class, b.lease::epochForAct,
                    "b has seen epoch " + abandoned + " unrenewed for a full duration, yet still acts under it");
        } finally {
            take.release();
            step.get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * F1b. A candidate's read hangs (bounded by a full duration, not by renew-every): meanwhile another
     * candidate took over, and this one goes on acting under the old epoch far longer than the
     * "at most renew-every old" of docs/lease.md.
     */
    @Test
    void aCandidateWhoseReadHangsActsUnderTheOldEpochLongAfterAnotherTookOver() throws Exception {
        Node a = new Node("a");
        a.step();
        long old = a.lease.epochForAct();
        a.ticks.close(); // a dies at t=0

        Node b = new Node("b", stepper());
        Node c = new Node("c");
        b.step(); // both see a at t=0
        c.step();

        Gate read = store.holdNext(Call.READ); // b's next read gets no answer yet
        b.clock.pass(TIMING.renewEvery());
        CompletableFuture<Void> step = b.stepAsync();
        read.awaitHeld();
        try {
            c.clock.advance(TIMING.duration()); // c takes over at t=15
            long fresh = c.lease.epochForAct();
            assertTrue(fresh > old);
            b.clock.pass(TIMING.duration().minus(TIMING.renewEvery())); // b at t=15 too, its last answered read at t=0
            long used = b.lease.canAct() ? b.lease.epochForAct() : -1;
            assertTrue(used != old, "b acts under epoch " + old + " though its last answered read is "
                    + TIMING.duration() + " old and " + fresh + " holds the lease now");
        } finally {
            read.release();
            step.get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * F2. A take that answers after renew-deadline (slow bus: lastRevision + create each bounded by a
     * full duration) is born expired. Its deadline timer fires at once on the timer thread and loses
     * it; the step thread then writes standing "held" over "lost": readiness UP, /lease says held.
     */
    @Test
    void aTakeBornPastItsDeadlineIsLostButTheStandingSaysHeld() throws Exception {
        Node b = new Node("b", stepper(), new EagerTimers());
        Gate create = store.holdNext(Call.CREATE);
        CompletableFuture<Void> step = b.stepAsync();
        create.awaitHeld();
        b.clock.pass(TIMING.renewDeadline().plusMillis(1));
        create.release();
        step.get(10, TimeUnit.SECONDS);

        assertThrows(ActRefused.class, b.lease::epochForAct); // the gate is right...
        assertEquals(1, b.events.lostCount());
        assertTrue(b.lease.standing().lost(), "...but readiness reads the standing, which says "
                + b.lease.standing().mode() + "; events in order: " + b.events.said);
    }

    /**
     * F3. A renewal landed without an answer; the next renewal conflicts and its re-read is on its way
     * when the release comes. The re-read finds the landed write, but the CAS fails (released) and the
     * revision is not recorded, so the give-back writes at the old revision, conflicts, and the lease
     * stays held in the store for a full duration after a clean stop.
     */
    @Test
    void aReleaseDuringARecheckGivesBackTheRenewalThatLanded() throws Exception {
        Node a = new Node("a", stepper());
        a.step();
        store.loseAnswerOfNext(Call.UPDATE);
        a.clock.advance(TIMING.renewEvery()); // landed at revision 2, answer lost

        Gate reread = store.holdNext(Call.READ);
        a.clock.pass(Duration.ofSeconds(1)); // t=6, before the deadline at 10
        CompletableFuture<Void> step = a.stepAsync(); // update at 1 conflicts; the re-read waits
        reread.awaitHeld();
        CompletableFuture<Void> release = CompletableFuture.runAsync(a.lease::release, calls);
        Await.until("the release to begin", Duration.ofSeconds(10),
                () -> "released at shutdown".equals(a.lease.standing().reason()));
        reread.release();
        step.get(10, TimeUnit.SECONDS);
        release.get(10, TimeUnit.SECONDS);

        LeaseRecord now = store.read().orElseThrow().record();
        assertEquals(LeaseRecord.Vacancy.RELEASED, now.vacancy(), "not given back: " + now + "; " + a.events.said);
    }

    /** F3b. A take whose answer was lost, then a clean stop: the landed take is left held for a duration. */
    @Test
    void aReleaseAfterATakeWhoseAnswerWasLostGivesItBack() throws Exception {
        Node a = new Node("a");
        store.loseAnswerOfNext(Call.CREATE);
        a.step();
        assertEquals("waiting", a.lease.standing().mode());
        a.lease.release();
        LeaseRecord now = store.read().orElseThrow().record();
        assertEquals(LeaseRecord.Vacancy.RELEASED, now.vacancy(), "left held by a: " + now);
    }

    /**
     * F5. b has just seen a holding the lease; then its reads are refused (its grant changed). It goes
     * unleased at once and, in leader mode, drains beside the live holder for as long as it cannot read:
     * "nobody else holds it" was never established.
     */
    @Test
    void aCandidateThatSawALiveHolderDoesNotGoUnleasedWhenItsReadsAreRefused() throws Exception {
        Node a = new Node("a");
        Node b = new Node("b");
        a.step();
        b.step();
        assertEquals("waiting", b.lease.standing().mode());
        store.deny(Call.READ); // a's renewals (updates) go on
        a.clock.advance(TIMING.renewEvery());
        b.clock.advance(TIMING.renewEvery());
        assertTrue(a.lease.leads());
        assertTrue(!b.lease.leads(), () -> "two leaders: a holds epoch " + a.lease.standing().epoch() + ", b is "
                + b.lease.standing().mode());
        assertEquals("waiting", b.lease.standing().mode());
    }

    /** F5b. After a wipe a candidate whose stream-info call is refused skips the reset wait and serves at once. */
    @Test
    void afterAWipeARefusedRevisionCheckDoesNotSkipTheResetWait() throws Exception {
        Node a = new Node("a");
        a.step();
        store.wipe();
        store.deny(Call.LAST_REVISION);
        Node b = new Node("b");
        b.step(); // reads an empty key (the read makes the bucket again), then the take's revision check is refused
        assertTrue(a.lease.leads(), "a is still within its deadline");
        assertTrue(!b.lease.leads(), "b serves " + b.lease.standing().mode() + " right after the reset, beside a");
    }
}
