package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.DrivenClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The borrowing arithmetic on the in-memory store, with the borrower's time driven by the test: no
 * epoch before a change is seen, TERM at p + renew-deadline and KILL by p + killAfter, where p is
 * when the last read still showing the value before the latest change was sent. Reads are made by
 * hand ({@code look()}), so each test says exactly when the borrower looked.
 */
class BorrowedEpochTest {

    static final LeaseTiming TIMING = new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(5),
            Duration.ofSeconds(10));
    static final Holder HOLDER = new Holder("holder-1", "host", "test");
    static final Holder OTHER = new Holder("holder-2", "host", "test");
    static final Holder ME = new Holder("leasehold-exec pid 1", "host", "test");

    final DrivenClock clock = new DrivenClock();
    final InMemoryLeaseStore store = new InMemoryLeaseStore();
    final List<Long> offered = new ArrayList<>();
    final List<String> stale = new ArrayList<>();
    final List<Long> killAt = new ArrayList<>();
    final List<String> unreadable = new ArrayList<>();
    boolean accept = true;
    BorrowedEpoch watch;
    long revision;
    long epoch;

    @BeforeEach
    void holderTookTheLease() throws Exception {
        revision = store.create(record(HOLDER, 0)); // as a take writes it: epoch 0 = this revision
        epoch = revision;
        watch = new BorrowedEpoch(store, clock, TIMING, ME, new BorrowedEpoch.Listener() {
            @Override
            public boolean borrowable(LeaseStore.Versioned held) {
                offered.add(held.epoch());
                return accept;
            }

            @Override
            public void unreadable(String why) {
                unreadable.add(why);
            }

            @Override
            public void stale(String why, long killAtNanos) {
                stale.add(why);
                killAt.add(killAtNanos);
            }
        });
    }

    static LeaseRecord record(Holder holder, long epoch) {
        Instant at = Instant.parse("2026-01-02T03:04:05Z");
        return new LeaseRecord(holder, epoch, at, at);
    }

    /** Moves the borrower's time on to {@code seconds} after the start, firing its timers on the way. */
    void at(double seconds) {
        long target = (long) (seconds * 1e9);
        clock.advance(Duration.ofNanos(target - clock.monotonicNanos()));
    }

    static long nanos(double seconds) {
        return (long) (seconds * 1e9);
    }

    void renew() throws Exception {
        revision = store.update(record(HOLDER, epoch), revision);
    }

    /** Borrowing from p = 1s: first sight at 0, the same at 1, a renewal at 2, seen at 3. */
    void borrowingFromOneSecond() throws Exception {
        watch.look();
        at(1);
        watch.look();
        at(2);
        renew();
        at(3);
        watch.look();
        assertEquals(List.of(epoch), offered);
    }

    @Test
    void firstSightOffersNothingAndTheFirstRenewalSeenOffersTheEpochUntilPPlusTheDeadline() throws Exception {
        watch.look();
        at(1);
        watch.look();
        assertEquals(List.of(), offered, "no change seen yet: nothing may act");
        at(2);
        renew();
        at(3);
        watch.look();
        assertEquals(List.of(epoch), offered, "a renewal seen: the epoch may be acted under");
        assertEquals(epoch, watch.epoch());
        at(11 - 1e-6);
        assertEquals(List.of(), stale, "before p (1s, the last read showing the old value) + renew-deadline");
        at(11);
        assertEquals(1, stale.size(), "TERM at p + renew-deadline, on the timer");
        assertTrue(stale.get(0).contains("no renewal of epoch " + epoch + " was seen within"), stale.get(0));
        assertEquals(List.of(nanos(1 + 12.5)), killAt, "KILL by p + killAfter, short of p + duration (16s)");
    }

    @Test
    void eachRenewalSeenMovesTheDeadlineAndTheLastOneBoundsIt() throws Exception {
        borrowingFromOneSecond();
        // The holder renews every 5s, at 7.5, 12.5, ... 117.5; the borrower reads every second.
        for (int s = 4; s <= 120; s++) {
            at(s - 0.5);
            if ((s - 0.5 - 2.5) % 5 == 0) {
                renew();
            }
            at(s);
            watch.look();
        }
        assertEquals(List.of(), stale, "two minutes of renewals, each seen within a second");
        for (int s = 121; s <= 130; s++) {
            at(s);
            watch.look();
        }
        // The last renewal, written at 117.5, was first seen by the read at 118: p = 117.
        assertEquals(1, stale.size(), stale.toString());
        at(131);
        assertEquals(List.of(nanos(117 + 12.5)), killAt);
    }

    @Test
    void aFailedReadMovesNothing() throws Exception {
        borrowingFromOneSecond();
        store.deny(InMemoryLeaseStore.Call.READ);
        for (int s = 4; s <= 10; s++) {
            at(s);
            if (s == 6) {
                renew(); // written, but no read shows it
            }
            watch.look();
        }
        at(11 - 1e-6);
        assertEquals(List.of(), stale);
        at(11);
        assertEquals(List.of(nanos(13.5)), killAt, "the deadline still counts from p = 1s");
        store.allow(InMemoryLeaseStore.Call.READ);
        at(12);
        watch.look();
        assertEquals(1, stale.size(), "stale for good, said once");
        assertEquals(List.of(), unreadable, "failing reads while borrowing only let the deadline come");
    }

    @Test
    void anotherEpochIsStaleAtOnceWithTheKillWithinTheGrace() throws Exception {
        borrowingFromOneSecond();
        at(4);
        long taken = store.update(record(OTHER, 0), revision);
        at(5);
        watch.look();
        assertEquals(1, stale.size());
        assertTrue(stale.get(0).contains("now names epoch " + taken), stale.get(0));
        assertEquals(List.of(nanos(5 + 2.5)), killAt, "now + grace, before p + killAfter (13.5s)");
    }

    @Test
    void aReleaseIsStaleAtOnceAsTheNextHolderMayTakeAtOnce() throws Exception {
        borrowingFromOneSecond();
        at(10);
        store.update(LeaseRecord.released(HOLDER, epoch, clock.now()), revision);
        watch.look();
        assertEquals(1, stale.size());
        assertTrue(stale.get(0).contains("gave the lease back"), stale.get(0));
        assertEquals(List.of(nanos(10 + 2.5)), killAt, "now + grace, before p + killAfter (13.5s)");
    }

    @Test
    void aDeletedLeaseIsStale() throws Exception {
        borrowingFromOneSecond();
        store.delete(revision);
        at(4);
        watch.look();
        assertTrue(stale.size() == 1 && stale.get(0).contains("was deleted"), stale.toString());
    }

    @Test
    void vacanciesAnEmptyKeyAndThisProcesssOwnValueAreNeverOffered() throws Exception {
        watch.look();
        List<LeaseRecord> values = List.of(LeaseRecord.released(HOLDER, epoch, clock.now()),
                LeaseRecord.reset(OTHER, clock.now()), record(ME, 0));
        int s = 0;
        for (LeaseRecord value : values) {
            at(++s);
            revision = store.update(value, revision);
            watch.look();
        }
        at(++s);
        store.delete(revision);
        watch.look();
        assertEquals(List.of(), offered, "released, reset, this process's own and empty: the lease decides those");
        at(++s);
        long taken = store.create(record(OTHER, 0));
        at(s + 0.5);
        watch.look();
        assertEquals(List.of(taken), offered, "another holder's take, seen after a read showing the key empty");
        at(s - 1 + 10 - 1e-6);
        assertEquals(List.of(), stale);
        at(s - 1 + 10);
        assertEquals(List.of(nanos(s - 1 + 12.5)), killAt, "p: the read at " + (s - 1) + "s, which showed it empty");
    }

    @Test
    void aHolderSeenUnchangedIsNeverOffered() {
        for (int s = 0; s <= 60; s++) {
            at(s);
            watch.look();
        }
        assertEquals(List.of(), offered, "a holder that does not renew may be dead: the lease takes over, after a"
                + " full duration");
        assertEquals(List.of(), unreadable);
    }

    @Test
    void beforeBorrowingReadsFailingForAFullDurationAreUnreadable() {
        store.deny(InMemoryLeaseStore.Call.READ);
        at(15 - 1e-6);
        watch.look();
        assertEquals(List.of(), unreadable);
        at(15);
        watch.look();
        assertEquals(1, unreadable.size(), unreadable.toString());
        assertTrue(unreadable.get(0).contains("could not be read for a full leasehold.lease.duration"),
                unreadable.get(0));
        store.allow(InMemoryLeaseStore.Call.READ);
        at(16);
        watch.look();
        assertEquals(1, unreadable.size(), "the watch has ended");
        assertEquals(List.of(), offered);
    }

    @Test
    void aChangeSeenTooLateToActUnderIsNotOfferedAndTheNextOneIs() throws Exception {
        watch.look();
        store.deny(InMemoryLeaseStore.Call.READ);
        at(3);
        renew();
        for (int s = 4; s <= 10; s++) {
            at(s);
            watch.look();
        }
        store.allow(InMemoryLeaseStore.Call.READ);
        at(11);
        watch.look();
        assertEquals(List.of(), offered, "p = 0, and 0 + renew-deadline has passed");
        at(13);
        renew();
        at(14);
        watch.look();
        assertEquals(List.of(epoch), offered);
        at(21);
        assertEquals(List.of(nanos(11 + 12.5)), killAt, "p = 11s, the read that showed the earlier renewal");
    }

    @Test
    void anOfferTurnedDownEndsTheWatch() throws Exception {
        accept = false;
        borrowingFromOneSecond();
        at(4);
        store.update(record(OTHER, 0), revision);
        watch.look();
        at(30);
        assertEquals(List.of(), stale, "nothing borrowed: nothing to stop");
    }

    @Test
    void readsComeOftenEnoughForTheDeadlineToWaitForTheNextRenewal() {
        assertEquals(Duration.ofSeconds(1), BorrowedEpoch.readEvery(TIMING));
        assertEquals(Duration.ofMillis(200), BorrowedEpoch.readEvery(new LeaseTiming(Duration.ofSeconds(3),
                Duration.ofSeconds(1), Duration.ofSeconds(2))));
        assertEquals(Duration.ofSeconds(1), BorrowedEpoch.readEvery(new LeaseTiming(Duration.ofSeconds(30),
                Duration.ofSeconds(1), Duration.ofSeconds(20))), "never rarer than renew-every");
        assertEquals(Duration.ofMillis(50), BorrowedEpoch.readEvery(new LeaseTiming(Duration.ofSeconds(3),
                Duration.ofSeconds(1), Duration.ofMillis(1100))), "never busier than 20 reads a second");
    }
}
