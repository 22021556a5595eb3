package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.DrivenClock;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The borrowing rule against the candidate that could take over: a holder renews every renew-every
 * and dies at a random moment; the borrower reads every {@link BorrowedEpoch#readEvery}; a real
 * {@link ControllerLease} on its own driven clock waits as candidate, each with its own phase. Time
 * runs in 10 ms steps on every clock at once. In every round the borrower is offered the epoch while
 * the holder lives, is never told it is stale while renewals still come, and has CMD's KILL due
 * before the candidate holds the lease.
 */
class BorrowedEpochRaceTest {

    static final Holder HOLDER = new Holder("holder", "host", "test");
    static final Holder BORROWER = new Holder("borrower", "host", "test");
    static final long STEP_MS = 10;

    @ParameterizedTest(name = "duration {0}ms, renew-every {1}ms, renew-deadline {2}ms")
    @CsvSource({"15000, 5000, 10000", "3000, 1000, 2000", "4000, 1000, 3000"})
    void theBorrowersKillIsDueBeforeTheCandidateTakesOver(long duration, long renewEvery, long renewDeadline)
            throws Exception {
        LeaseTiming timing = new LeaseTiming(Duration.ofMillis(duration), Duration.ofMillis(renewEvery),
                Duration.ofMillis(renewDeadline));
        Random random = new Random(duration * 31 + renewDeadline);
        for (int round = 0; round < 20; round++) {
            round(timing, random, "round " + round);
        }
    }

    private void round(LeaseTiming timing, Random random, String context) throws Exception {
        long every = timing.renewEvery().toMillis();
        long readEvery = BorrowedEpoch.readEvery(timing).toMillis();
        long holderPhase = random.nextInt((int) every / 10) * 10;
        long readPhase = random.nextInt((int) readEvery / 10) * 10;
        long candidatePhase = random.nextInt((int) every / 10) * 10;
        long diesAt = every * 4 + random.nextInt((int) every * 4 / 10) * 10;

        InMemoryLeaseStore store = new InMemoryLeaseStore();
        long revision = store.create(new LeaseRecord(HOLDER, 0, null, null));
        long epoch = revision;
        DrivenClock borrowerClock = new DrivenClock();
        DrivenClock candidateClock = new DrivenClock();
        long[] offeredAt = {-1};
        long[] offeredEpoch = {-1};
        long[] staleAt = {-1};
        long[] killAtMs = {-1};
        BorrowedEpoch watch = new BorrowedEpoch(store, borrowerClock, timing, BORROWER, new BorrowedEpoch.Listener() {
            @Override
            public boolean borrowable(LeaseStore.Versioned held) {
                offeredAt[0] = borrowerClock.monotonicNanos() / 1_000_000;
                offeredEpoch[0] = held.epoch();
                return true;
            }

            @Override
            public void unreadable(String why) {
                throw new AssertionError(why);
            }

            @Override
            public void stale(String why, long killAtNanos) {
                staleAt[0] = borrowerClock.monotonicNanos() / 1_000_000;
                killAtMs[0] = killAtNanos / 1_000_000;
            }
        });
        ControllerLease candidate = new ControllerLease(store, new MemoryFloor(), candidateClock, timing,
                new Holder("candidate", "host", "test"), Runnable::run, Runnable::run, new RecordingLeaseEvents());
        long takenAt = -1;
        for (long t = 0; t <= diesAt + timing.duration().toMillis() * 3 && takenAt < 0; t += STEP_MS) {
            borrowerClock.advance(Duration.ofMillis(t == 0 ? 0 : STEP_MS));
            candidateClock.advance(Duration.ofMillis(t == 0 ? 0 : STEP_MS));
            if (t < diesAt && t % every == holderPhase && t > 0) {
                revision = store.update(new LeaseRecord(HOLDER, epoch, null, null), revision);
            }
            if (t % readEvery == readPhase) {
                watch.look();
            }
            if (t == candidatePhase) {
                candidate.tick().join();
                candidateClock.every("lease", timing.renewEvery(), () -> Uni.createFrom().completionStage(candidate::tick));
            }
            if (candidate.standing().mode().equals("held")) {
                takenAt = t;
            }
        }
        String what = context + ": holder dies at " + diesAt + " ms, the borrower was offered the epoch at "
                + offeredAt[0] + ", told stale at " + staleAt[0] + " (KILL by " + killAtMs[0]
                + "), the candidate took at " + takenAt;
        assertTrue(offeredAt[0] >= 0 && offeredAt[0] < diesAt, what);
        assertTrue(staleAt[0] >= diesAt, "no stop while renewals still came: " + what);
        assertTrue(takenAt > 0, what);
        assertTrue(killAtMs[0] < takenAt, "CMD dead before the next holder: " + what);
        assertEquals(epoch, offeredEpoch[0], what);
        assertEquals(0, watch.epoch(), "nothing is lent once stale: " + what);
    }

    /** The floor kept in memory: the candidate needs one to take. */
    private static final class MemoryFloor implements EpochFloor {
        private long highest;

        @Override
        public synchronized long highest() {
            return highest;
        }

        @Override
        public synchronized void raise(long epoch) {
            highest = Math.max(highest, epoch);
        }
    }
}
