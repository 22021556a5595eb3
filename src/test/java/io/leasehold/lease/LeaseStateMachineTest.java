package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.InMemoryLeaseStore.Call;
import io.leasehold.lease.ScriptedFaults.Gate;
import io.leasehold.testing.DrivenClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every transition of the controller lease on the in-memory store, with time driven by the test:
 * the deadline on its own timer, lost answers, conflicts, release racing a step, an unusable floor,
 * resets seen by several candidates, and the unleased mode.
 */
class LeaseStateMachineTest {

    static final LeaseTiming TIMING = new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(5),
            Duration.ofSeconds(10));

    final InMemoryLeaseStore store = new InMemoryLeaseStore();
    final MemoryFloor floor = new MemoryFloor();
    final ExecutorService calls = Executors.newCachedThreadPool();
    final List<ExecutorService> pools = new ArrayList<>();

    @AfterEach
    void stop() {
        calls.shutdownNow();
        pools.forEach(ExecutorService::shutdownNow);
    }

    /**
     * The epoch floor in memory; it can be made to refuse writes, as a read-only spool does, or to lag:
     * writes accepted but not yet landed, as when the writer thread is held up by a slow disk.
     */
    static final class MemoryFloor implements EpochFloor {
        final AtomicLong highest = new AtomicLong();
        volatile boolean broken;
        volatile boolean lagging;

        @Override
        public long highest() throws IOException {
            if (broken) {
                throw new IOException("read-only file system");
            }
            return highest.get();
        }

        @Override
        public void raise(long epoch) throws IOException {
            if (broken) {
                throw new IOException("read-only file system");
            }
            if (!lagging) {
                highest.accumulateAndGet(epoch, Math::max);
            }
        }
    }

    /** One process on this test's store and floor; steps on the caller's thread unless given a pool. */
    final class Node extends LeaseNode {
        Node(String name) {
            this(name, Runnable::run);
        }

        Node(String name, java.util.concurrent.Executor steps) {
            super(store, floor, calls, TIMING, name, steps, new DrivenClock());
        }
    }

    @Test
    void theDeadlineFiresOnItsOwnTimerWithoutATickAndTellsWhenToKill() throws Exception {
        Node a = new Node("a");
        a.step();
        long epoch = a.lease.epochForAct();
        a.ticks.close(); // no tick ever comes again: a starved holder
        long sent = a.clock.monotonicNanos();
        a.clock.advance(TIMING.renewDeadline().minusMillis(1));
        assertEquals("held", a.mode());
        assertTrue(a.lease.leads());
        a.clock.advance(Duration.ofMillis(1));
        assertEquals("lost", a.mode(), "lost at the deadline itself, by the timer");
        assertFalse(a.lease.leads());
        assertThrows(ActRefused.class, a.lease::epochForAct);
        assertEquals(1, a.events.lostCount());
        LeaseEvents.Loss loss = a.events.losses.get(0);
        assertEquals(epoch, loss.standing().epoch());
        assertEquals(sent + TIMING.killAfter().toNanos(), loss.killAtNanos());
        assertTrue(loss.killAtNanos() < sent + TIMING.duration().toNanos(), "KILL comes before anyone may take over");
    }

    @Test
    void eachSuccessfulRenewalMovesTheDeadlineFromWhenItWasSent() {
        Node a = new Node("a");
        a.step();
        for (int i = 0; i < 10; i++) {
            a.clock.advance(TIMING.renewEvery());
        }
        assertEquals("held", a.mode());
        assertEquals(0, a.events.lostCount(), "old deadlines were disarmed");
    }

    @Test
    void aRenewalThatDoesNotAnswerIsNeverASuccess() {
        Node a = new Node("a");
        a.step();
        store.loseAnswerOfNext(Call.UPDATE);
        a.clock.advance(TIMING.renewEvery()); // landed, answer lost: unanswered
        assertTrue(a.events.said.contains("unanswered " + a.lease.standing().epoch()), a.events.said.toString());
        store.loseAnswerOfNext(Call.UPDATE);
        a.clock.advance(TIMING.renewEvery());
        // Two renewals landed but neither answered: the deadline still counts from the take.
        assertEquals("lost", a.mode());
    }

    @Test
    void aConflictAfterALostAnswerIsRecheckedAndTheHolderGoesOn() throws Exception {
        Node a = new Node("a");
        a.step();
        long epoch = a.lease.epochForAct();
        store.loseAnswerOfNext(Call.UPDATE);
        a.clock.advance(TIMING.renewEvery()); // landed at a new revision the holder does not know
        a.step(); // its update at the old revision conflicts; the re-read shows its own write
        assertEquals("held", a.mode());
        // The write that landed was sent at +5s: the deadline counts from there, not from the take.
        a.clock.advance(TIMING.renewDeadline().minus(TIMING.renewEvery()).plusMillis(1));
        assertEquals("held", a.mode(), "renewed at the revision it re-read");
        for (int i = 0; i < 6; i++) {
            a.clock.advance(TIMING.renewEvery());
        }
        assertEquals("held", a.mode());
        assertEquals(epoch, a.lease.epochForAct());
        assertEquals(0, a.events.lostCount());
    }

    @Test
    void aCreateWhoseAnswerWasLostIsAdoptedWithItsEpoch() throws Exception {
        Node a = new Node("a");
        store.loseAnswerOfNext(Call.CREATE);
        a.step();
        assertEquals("waiting", a.mode());
        assertThrows(ActRefused.class, a.lease::epochForAct);
        long landed = store.read().orElseThrow().revision();
        a.step();
        assertEquals("held", a.mode());
        assertEquals(landed, a.lease.epochForAct());
        assertTrue(a.events.said.contains("adopted " + landed), a.events.said.toString());
        assertEquals(landed, floor.highest.get());
    }

    @Test
    void aCandidateSeesTheHolderAndTakesOverAFullDurationAfterItsLastChange() throws Exception {
        Node a = new Node("a");
        Node b = new Node("b");
        a.step();
        long first = a.lease.epochForAct();
        b.step();
        b.look();
        assertEquals("waiting", b.mode());
        assertThrows(ActRefused.class, b.lease::epochForAct, "a first sight lends nothing: the entry may be old");
        b.clock.advance(TIMING.duration().minusMillis(1));
        assertThrows(ActRefused.class, b.lease::epochForAct, "never seen renewed: nothing lent");
        assertEquals("waiting", b.mode());
        b.clock.advance(Duration.ofMillis(1)); // the take's own timer, between two ticks
        assertEquals("held", b.mode());
        assertTrue(b.lease.epochForAct() > first);
        assertEquals(List.of("took " + b.lease.epochForAct() + " from a"), b.events.said);
    }

    @Test
    void aReleasedLeaseIsTakenAtOnceAndTheReleaseIsFinal() throws Exception {
        Node a = new Node("a");
        Node b = new Node("b");
        a.step();
        b.step();
        long first = a.lease.epochForAct();
        a.lease.release();
        assertTrue(store.read().orElseThrow().record().vacancy() == LeaseRecord.Vacancy.RELEASED);
        assertThrows(ActRefused.class, a.lease::epochForAct);
        a.step();
        assertThrows(ActRefused.class, a.lease::epochForAct, "no step takes it again after the release");
        b.step();
        assertEquals("held", b.mode());
        assertTrue(b.lease.epochForAct() > first);
        assertEquals(0, a.events.lostCount());
    }

    @Test
    void aTakeLandingAfterAReleaseIsGivenBackNotHeld() throws Exception {
        ExecutorService stepper = Executors.newSingleThreadExecutor();
        pools.add(stepper);
        Node a = new Node("a", stepper);
        Gate create = store.holdAnswerOfNext(Call.CREATE); // the create lands, then its answer waits
        CompletableFuture<Void> step = a.lease.tick();
        create.awaitHeld();
        CompletableFuture<Void> release = CompletableFuture.runAsync(a.lease::release, calls);
        // The release is final at once; its give-back waits behind the step still running.
        io.leasehold.testing.Await.until("the release to begin", Duration.ofSeconds(10),
                () -> "released at shutdown".equals(a.lease.standing().reason()));
        assertThrows(ActRefused.class, a.lease::epochForAct);
        create.release();
        step.get(10, TimeUnit.SECONDS);
        release.get(10, TimeUnit.SECONDS);
        assertThrows(ActRefused.class, a.lease::epochForAct, "released stays released");
        LeaseRecord now = store.read().orElseThrow().record();
        assertEquals(LeaseRecord.Vacancy.RELEASED, now.vacancy(), "the take that landed was given back: " + now);
        assertEquals(0, a.events.said.stream().filter(s -> s.startsWith("took")).count(), a.events.said.toString());
    }

    @Test
    void withoutAUsableFloorNothingIsTakenOrActed() {
        floor.broken = true;
        Node a = new Node("a");
        a.step();
        assertEquals("waiting", a.mode());
        assertThrows(ActRefused.class, a.lease::epochForAct);
        assertTrue(a.events.said.contains("floor unusable"), a.events.said.toString());
        assertTrue(store.calls().stream().noneMatch(c -> c == Call.CREATE), "nothing written without the floor");
        floor.broken = false;
        a.step();
        assertEquals("held", a.mode());
    }

    @Test
    void aFloorTooNearTheLargestRevisionTakesNothingRatherThanWrapAround() {
        floor.highest.set(Long.MAX_VALUE - 5_000); // no revision lies the margin past it
        Node a = new Node("a");
        a.step();
        assertEquals("waiting", a.mode());
        assertThrows(ActRefused.class, a.lease::epochForAct);
        assertTrue(a.events.said.contains("floor unusable"), a.events.said.toString());
        assertTrue(store.calls().stream().noneMatch(c -> c == Call.CREATE || c == Call.MOVE_REVISIONS_PAST),
                "nothing moved or written: " + store.calls());
    }

    @Test
    void afterAWipeEveryCandidateWaitsAFullDurationWhicheverMovedTheRevisions() throws Exception {
        Node a = new Node("a");
        a.step();
        for (int i = 0; i < 4; i++) {
            a.clock.advance(TIMING.renewEvery());
        }
        long before = a.lease.epochForAct();
        store.wipe();
        Node b = new Node("b");
        Node c = new Node("c");
        b.step(); // moves the revisions past the floor and marks the key reset
        assertEquals("waiting", b.mode());
        assertNotNull(b.lease.standing().reset());
        c.step(); // sees the mark: a fresh candidate, which moved nothing, waits too
        assertEquals("waiting", c.mode());
        assertThrows(ActRefused.class, c.lease::epochForAct, "nobody's epoch to act under after a reset");
        a.step(); // the old holder's renewal finds the mark
        assertEquals("lost", a.mode());

        b.clock.advance(TIMING.duration().minusMillis(1));
        c.clock.advance(TIMING.duration().minusMillis(1));
        assertEquals("waiting", b.mode());
        assertEquals("waiting", c.mode());
        b.clock.advance(Duration.ofMillis(1));
        c.clock.advance(Duration.ofMillis(1));
        long held = List.of(b, c).stream().filter(n -> n.mode().equals("held")).count();
        assertEquals(1, held, "exactly one takes, a full duration after the reset");
        Node holder = b.mode().equals("held") ? b : c;
        assertTrue(holder.lease.epochForAct() > before, "epochs never go backwards");
    }

    @Test
    void aHolderNeverOutlivesAResetEvenWhenItsNextRevisionIsTheMarks() throws Exception {
        Node a = new Node("a");
        a.step(); // epoch 1 at revision 1
        a.clock.advance(TIMING.renewEvery()); // renewed at revision 2: its next update expects 2
        io.leasehold.testing.Await.until("the floor to record the renewal", Duration.ofSeconds(10),
                () -> floor.highest.get() == 2); // written off the step thread
        store.wipe();
        Node b = new Node("b");
        b.step(); // moves past the floor and marks the key: were the floor 1, the mark would be revision 2
        long mark = store.read().orElseThrow().revision();
        assertTrue(mark > 2, "the floor recorded the renewal's revision too: mark at " + mark);
        a.step();
        assertEquals("lost", a.mode(), "its renewal conflicts with the mark instead of overwriting it");
        assertEquals(LeaseRecord.Vacancy.RESET, store.read().orElseThrow().record().vacancy());
    }

    @Test
    void aHolderNeverOutlivesAResetThatCameBeforeTheFloorRecordedItsLastRenewals() throws Exception {
        Node a = new Node("a");
        a.step(); // epoch 1 at revision 1, recorded before anything acts
        assertEquals(1, floor.highest.get());
        floor.lagging = true; // the floor's writer is held up: the renewal below lands in the store only
        a.clock.advance(TIMING.renewEvery()); // revision 2: a's next update expects 2
        assertEquals("held", a.mode());
        assertEquals(1, floor.highest.get(), "the floor still says revision 1");
        store.wipe();
        Node b = new Node("b");
        b.step(); // moves the revisions past the floor it reads (1), and marks the key
        long mark = store.read().orElseThrow().revision();
        assertTrue(mark > 2, "moved only past the floor, the mark would be revision 2, the one a expects: " + mark);
        a.step();
        assertEquals("lost", a.mode(), "its renewal conflicts with the mark instead of overwriting it");
        assertEquals(LeaseRecord.Vacancy.RESET, store.read().orElseThrow().record().vacancy());
    }

    @Test
    void wallClocksThatJumpOrDisagreeNeitherCostTheHolderNorLetACandidateTakeOver() throws Exception {
        Node a = new Node("a");
        DrivenClock behind = new DrivenClock();
        behind.set(DrivenClock.START.minus(Duration.ofHours(1))); // the candidate's wall clock an hour behind
        LeaseNode b = new LeaseNode(store, floor, calls, TIMING, "b", Runnable::run, behind);
        a.step();
        long epoch = a.lease.epochForAct();
        b.step();
        for (int i = 0; i < 12; i++) { // four full durations, both renewing and watching on time
            a.clock.advance(TIMING.renewEvery());
            b.clock.advance(TIMING.renewEvery());
            if (i == 5) {
                a.clock.set(a.clock.now().plus(Duration.ofMinutes(10))); // the holder's steps forward mid-run
            }
        }
        assertEquals("held", a.mode());
        assertEquals(epoch, a.lease.epochForAct());
        assertEquals(0, a.events.lostCount());
        assertEquals("waiting", b.mode(), "only the monotonic clocks count: no takeover of a live holder");
        assertEquals("a", b.lease.standing().holder().instance(), "b kept watching a");
        assertEquals(epoch, b.lease.epochForAct(), "seen renewing all along: the holder's epoch is lent");
        assertEquals(List.of(), b.lapses, "a live holder's borrower never lapses");
    }

    @Test
    void anEmptyKeyAfterEpochsWereIssuedIsTreatedAsAReset() throws Exception {
        Node a = new Node("a");
        a.step();
        a.lease.release();
        store.purge(); // the value gone, revisions kept: no holder can be named, one may still act
        Node b = new Node("b");
        b.step();
        assertEquals("waiting", b.mode(), "an empty key after epochs were issued is treated as a reset");
        assertEquals(LeaseRecord.Vacancy.RESET, store.read().orElseThrow().record().vacancy());
    }

    @Test
    void deniedServesUnleasedAndAnotherHolderSeenIsALoss() throws Exception {
        Node a = new Node("a");
        store.deny(Call.READ);
        a.step();
        assertEquals("unleased", a.mode());
        assertEquals(0, a.lease.epochForAct());
        assertTrue(a.lease.leads());
        a.step();
        assertEquals(1, a.events.said.stream().filter("unleased"::equals).count(), "said once");
        store.allow(Call.READ);
        store.create(new LeaseRecord(new Holder("b", "host", "test"), 0, DrivenClock.START, DrivenClock.START));
        a.step();
        assertEquals("lost", a.mode());
        assertEquals(1, a.events.lostCount());
    }

    @Test
    void aRenewalRefusedOutrightIsALoss() {
        Node a = new Node("a");
        a.step();
        store.denyNext(Call.UPDATE);
        a.step();
        assertEquals("lost", a.mode());
        assertTrue(a.lease.standing().reason().contains("refused"), a.lease.standing().reason());
    }
}
