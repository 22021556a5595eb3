package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.InMemoryLeaseStore.Call;
import io.leasehold.lease.ScriptedFaults.Gate;
import io.leasehold.testing.DrivenClock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Borrowed epochs in the service ({@code claims} mode), as {@link LeaseNode} wires them like the
 * service: a waiting instance acts under the holder's epoch only once it has seen the entry renewed,
 * for renew-deadline from the last read that still showed the value before (p); an entry seen unchanged
 * that long is no longer lent, and its attempts are told to stop by p + killAfter; a take ends the
 * borrowing before the take is written. Each instance has its own driven clock.
 */
class BorrowingInTheServiceTest {

    final InMemoryLeaseStore store = new InMemoryLeaseStore();
    final LeaseStateMachineTest.MemoryFloor floor = new LeaseStateMachineTest.MemoryFloor();
    final ExecutorService calls = Executors.newCachedThreadPool();
    final ExecutorService steps = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        calls.shutdownNow();
        steps.shutdownNow();
    }

    private LeaseNode node(String name, LeaseStore on, LeaseTiming timing) {
        return new LeaseNode(on, floor, calls, timing, name, Runnable::run, new DrivenClock());
    }

    /**
     * The withdrawn first design counted from the read before the last and read only every renew-every:
     * with the default timings a healthy holder's borrower lapsed every cycle. Holder and borrower tick
     * on clocks of their own with random phases; time runs in 10 ms steps on both.
     */
    @ParameterizedTest(name = "duration {0}ms, renew-every {1}ms, renew-deadline {2}ms")
    @CsvSource({"15000, 5000, 10000", "8000, 1000, 5000", "3000, 1000, 2000", "4000, 1000, 3000"})
    void aLiveHoldersBorrowerIsLentItsEpochWithoutALapse(long duration, long renewEvery, long renewDeadline)
            throws Exception {
        LeaseTiming timing = new LeaseTiming(Duration.ofMillis(duration), Duration.ofMillis(renewEvery),
                Duration.ofMillis(renewDeadline));
        Random random = new Random(duration * 31 + renewEvery);
        for (int round = 0; round < 5; round++) {
            InMemoryLeaseStore shared = new InMemoryLeaseStore();
            LeaseNode a = new LeaseNode(shared, new LeaseStateMachineTest.MemoryFloor(), calls, timing, "a",
                    Runnable::run, new DrivenClock());
            a.step();
            long epoch = a.lease.epochForAct();
            LeaseNode b = new LeaseNode(shared, new LeaseStateMachineTest.MemoryFloor(), calls, timing, "b",
                    Runnable::run, new DrivenClock());
            long phase = random.nextInt((int) renewEvery / 10) * 10;
            a.clock.advance(Duration.ofMillis(phase));
            b.step();
            long lentFrom = -1;
            for (long t = 0; t < duration * 20; t += 10) {
                a.clock.advance(Duration.ofMillis(10));
                b.clock.advance(Duration.ofMillis(10));
                if (b.lease.canAct() && lentFrom < 0) {
                    lentFrom = t;
                }
                if (lentFrom >= 0) {
                    assertTrue(b.lease.canAct(), "round " + round + ": lent from " + lentFrom + " ms, not at " + t);
                }
            }
            assertTrue(lentFrom >= 0 && lentFrom <= renewEvery * 2, "round " + round + ": lent only from " + lentFrom);
            assertEquals(List.of(), b.lapses, "round " + round + ": a live holder's borrower never lapses");
            assertEquals("waiting", b.mode());
            assertEquals(epoch, a.lease.epochForAct());
            a.ticks.close();
        }
    }

    /** A borrower cut off from the store (reads unanswered) stops by its own timer, however its reads hang. */
    @Test
    void aBorrowerCutOffIsToldToStopAtPPlusTheDeadlineAndBorrowsAgainOnceItSeesRenewals() throws Exception {
        LeaseTiming timing = LeaseStateMachineTest.TIMING; // 15s / 5s / 10s; the borrower reads every 1s
        CutOff link = new CutOff(store);
        LeaseNode a = node("a", store, timing);
        LeaseNode b = node("b", link, timing);
        a.step();
        long epoch = a.lease.epochForAct();
        b.step();
        b.look(); // first sight, at b's 0
        a.clock.advance(timing.renewEvery()); // a renews
        b.clock.advance(Duration.ofSeconds(1)); // b's read at 1s shows the renewal: p = 0
        assertEquals(epoch, b.lease.epochForAct());

        link.cut = true;
        long p = 0;
        for (int s = 0; s < 12; s++) { // a renews on; b hears nothing
            a.clock.advance(Duration.ofSeconds(1));
            b.clock.advance(Duration.ofSeconds(1));
        }
        assertEquals(1, b.lapses.size(), "told once: " + b.lapses);
        assertEquals(epoch, b.lapses.get(0).epoch());
        assertEquals(p + timing.renewDeadline().toNanos(), b.lapsedAt.get(0), "on its timer at p + renew-deadline");
        assertEquals(p + timing.killAfter().toNanos(), b.lapses.get(0).killAtNanos(), "KILL by p + killAfter");
        assertTrue(!b.lapses.get(0).byTake(), "a lapse, not a take: the log warns");
        assertThrows(ActRefused.class, b.lease::epochForAct);

        link.cut = false;
        a.clock.advance(Duration.ofSeconds(1));
        b.clock.advance(Duration.ofSeconds(1)); // one read: a's last renewal was before it
        assertThrows(ActRefused.class, b.lease::epochForAct, "back: a first sight again lends nothing");
        for (int s = 0; s < 6; s++) {
            a.clock.advance(Duration.ofSeconds(1));
            b.clock.advance(Duration.ofSeconds(1));
        }
        assertEquals(epoch, b.lease.epochForAct(), "a renewal seen again: lent again");
        assertEquals(1, b.lapses.size());
    }

    /**
     * A holder gives the lease back: the borrower's own candidate may take it at once. Whatever ran under
     * the old epoch is told to stop before the take is even written, so none of it runs on past this
     * instance's first act under its own epoch.
     */
    @Test
    void aTakeEndsTheBorrowingBeforeTheTakeIsWritten() throws Exception {
        LeaseTiming timing = LeaseStateMachineTest.TIMING;
        LeaseNode a = node("a", store, timing);
        LeaseNode b = new LeaseNode(store, floor, calls, timing, "b", steps, new DrivenClock());
        a.step();
        long old = a.lease.epochForAct();
        b.step();
        b.look();
        a.clock.advance(timing.renewEvery());
        b.clock.advance(Duration.ofSeconds(1));
        assertEquals(old, b.lease.epochForAct());
        a.lease.release();

        Gate take = store.holdNext(Call.UPDATE); // b's take over the released entry
        CompletableFuture<Void> step = b.stepAsync();
        take.awaitHeld();
        try {
            assertEquals(List.of(old), b.lapses.stream().map(Borrowing.Lapse::epoch).toList(),
                    "told to stop before the take is written");
            assertTrue(b.lapses.get(0).killAtNanos() <= b.clock.monotonicNanos(), "KILL due at once");
            assertTrue(b.lapses.get(0).byTake(), "told as the take's own (the log says it at info)");
            assertThrows(ActRefused.class, b.lease::epochForAct, "nothing acts while the take is on its way");
        } finally {
            take.release();
            step.get(10, TimeUnit.SECONDS);
        }
        assertTrue(b.lease.epochForAct() > old, "then b acts under its own epoch");
    }

    @Test
    void tooLittleSlackBetweenTheDeadlineAndTheRenewalsIsWarnedOfNamingBothKeys() {
        LeaseTiming tight = new LeaseTiming(Duration.ofSeconds(3), Duration.ofMillis(1000), Duration.ofMillis(1100));
        String said = tight.borrowingWarning().orElseThrow();
        assertTrue(said.contains("leasehold.lease.renew-deadline") && said.contains("leasehold.lease.renew-every")
                && said.contains("at least 500 ms apart"), said);
        assertTrue(LeaseStateMachineTest.TIMING.borrowingWarning().isEmpty(), "the defaults leave 5 s");
        assertTrue(new LeaseTiming(Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofMillis(1500))
                .borrowingWarning().isEmpty(), "500 ms is enough");
    }

    /** A link that answers nothing: every call fails as a request with no answer does. */
    static final class CutOff implements LeaseStore {
        private final LeaseStore real;
        volatile boolean cut;

        CutOff(LeaseStore real) {
            this.real = real;
        }

        private void check() throws LeaseStoreException {
            if (cut) {
                throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, "no answer (link cut)", null);
            }
        }

        @Override
        public Optional<Versioned> read() throws LeaseStoreException {
            check();
            return real.read();
        }

        @Override
        public long create(LeaseRecord record) throws LeaseStoreException {
            check();
            return real.create(record);
        }

        @Override
        public long update(LeaseRecord record, long revision) throws LeaseStoreException {
            check();
            return real.update(record, revision);
        }

        @Override
        public void delete(long revision) throws LeaseStoreException {
            check();
            real.delete(revision);
        }

        @Override
        public long lastRevision() throws LeaseStoreException {
            check();
            return real.lastRevision();
        }

        @Override
        public long moveRevisionsPast(long floor) throws LeaseStoreException {
            check();
            return real.moveRevisionsPast(floor);
        }
    }
}
