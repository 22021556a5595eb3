package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.DrivenClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A waiting instance acts under the holder's epoch only as the holder itself may: counted from a read
 * sent before the renewal it saw land (the one before the read that showed it), an entry seen unchanged
 * for renew-deadline is no longer borrowed, and what runs under it is told to stop, KILLed by killAfter
 * from that read, short of any take (issue 24: a borrower went on acting under a cut-off holder's epoch
 * after its own first act under a new one).
 */
class BorrowedEpochBoundTest {

    static final LeaseTiming TIMING = new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(5),
            Duration.ofSeconds(10));

    final InMemoryLeaseStore store = new InMemoryLeaseStore();
    final LeaseStateMachineTest.MemoryFloor floor = new LeaseStateMachineTest.MemoryFloor();
    final ExecutorService calls = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        calls.shutdownNow();
    }

    private LeaseNode node(String name) {
        return new LeaseNode(store, floor, calls, TIMING, name, Runnable::run, new DrivenClock());
    }

    @Test
    void aWaitingInstanceBorrowsOnlyOnceItSawTheHolderRenew() throws Exception {
        LeaseNode a = node("a");
        LeaseNode b = node("b");
        a.step();
        long epoch = a.lease.epochForAct();
        b.step();
        assertThrows(ActRefused.class, b.lease::epochForAct, "a first sight: the entry may be nearly a duration old");
        b.step();
        assertThrows(ActRefused.class, b.lease::epochForAct, "seen again unchanged: still nothing renewed");
        a.step();
        b.step();
        assertEquals(epoch, b.lease.epochForAct(), "the renewal was seen land");
    }

    @Test
    void aHolderCutOffIsNoLongerBorrowedRenewDeadlineAfterTheReadBeforeItsLastRenewalWasSeen() throws Exception {
        LeaseNode a = node("a");
        LeaseNode b = node("b");
        a.step();
        long epoch = a.lease.epochForAct();
        long p = b.clock.monotonicNanos();
        b.step(); // read sent at p: a's renewal below lands after it
        b.clock.pass(Duration.ofSeconds(4));
        a.step(); // a's last renewal; then a is cut off
        a.ticks.close();
        b.step(); // shows the renewal, 4 s after p
        assertEquals(epoch, b.lease.epochForAct());

        long lapseAt = p + TIMING.renewDeadline().toNanos();
        b.clock.advance(Duration.ofNanos(lapseAt - 1 - b.clock.monotonicNanos())); // b reads on, unchanged
        assertEquals(epoch, b.lease.epochForAct(), "a hair before p + renew-deadline");
        assertEquals(List.of(), b.events.lapses);
        b.clock.advance(Duration.ofNanos(1));
        assertThrows(ActRefused.class, b.lease::epochForAct, "p + renew-deadline, not the last read + renew-deadline");
        assertEquals(List.of(new LeaseEvents.Lapse(epoch, p + TIMING.killAfter().toNanos())), b.events.lapses,
                "told once, on its own timer, to have everything under the epoch dead by p + killAfter");
        assertTrue(p + TIMING.killAfter().toNanos() < p + TIMING.duration().toNanos());

        b.clock.advance(TIMING.duration().minus(TIMING.renewDeadline()).minusSeconds(4).minusNanos(1));
        assertEquals("waiting", b.mode(), "unchanged reads never borrow again");
        assertThrows(ActRefused.class, b.lease::epochForAct);
        b.clock.advance(TIMING.duration());
        assertEquals("held", b.mode(), "a full duration after the last change b takes over");
        assertTrue(b.lease.epochForAct() > epoch);
        assertEquals(1, b.events.lapses.size(), "lapsed once");
    }

    @Test
    void aTakeEndsTheBorrowingBeforeItsFirstAct() throws Exception {
        LeaseNode a = node("a");
        LeaseNode b = node("b");
        a.step();
        long epoch = a.lease.epochForAct();
        b.step();
        a.step();
        b.step();
        assertEquals(epoch, b.lease.epochForAct());
        a.lease.release(); // given back: b may take at its next read, long before its borrowing would lapse
        b.step();
        assertEquals("held", b.mode());
        long taken = b.lease.epochForAct();
        assertEquals(List.of("lapsed " + epoch, "took " + taken), b.events.said,
                "the borrowed epoch's acts are told to end before the new epoch is held");
        assertEquals(1, b.events.lapses.size());
    }
}
