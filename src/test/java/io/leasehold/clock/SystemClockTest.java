package io.leasehold.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The system clock on real time, as the command line makes it. A second, always-quick tick on the same
 * clock (its ticks share one thread; same period) is the yardstick: when it has run several times, so has
 * the schedule of the first.
 */
class SystemClockTest {

    private static final Duration PERIOD = Duration.ofMillis(10);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final SystemClock clock = SystemClock.forCommands();
    private final AtomicInteger yardstick = new AtomicInteger();

    @AfterEach
    void close() {
        clock.close();
    }

    private void yardstickRuns(int more) {
        int target = yardstick.get() + more;
        Await.until("the yardstick tick ran " + more + " more times", DEADLINE, () -> yardstick.get() >= target);
    }

    private void startYardstick() {
        clock.every("yardstick", PERIOD, () -> {
            yardstick.incrementAndGet();
            return Uni.createFrom().voidItem();
        });
    }

    @Test
    void theServicesClockRunsATicksFirstTimeAtOnceAndTheCommandLinesAfterAPeriod() {
        AtomicInteger service = new AtomicInteger();
        AtomicInteger command = new AtomicInteger();
        try (SystemClock serviceClock = new SystemClock()) {
            serviceClock.every("housekeeping", Duration.ofHours(1), () -> {
                service.incrementAndGet();
                return Uni.createFrom().voidItem();
            });
            clock.every("renewal", Duration.ofHours(1), () -> {
                command.incrementAndGet();
                return Uni.createFrom().voidItem();
            });
            Await.until("the service's first tick, at once", DEADLINE, () -> service.get() == 1);
            startYardstick();
            yardstickRuns(5); // the command clock's tick thread has run since: an hour has not passed
            assertEquals(0, command.get(), "the command line's first tick comes after its period");
        }
    }

    @Test
    void ticksRepeatAndStopWhenClosed() {
        AtomicInteger ticks = new AtomicInteger();
        TickingClock.Ticks handle = clock.every("t", PERIOD, () -> {
            ticks.incrementAndGet();
            return Uni.createFrom().voidItem();
        });
        startYardstick();
        Await.until("three ticks", DEADLINE, () -> ticks.get() >= 3);
        handle.close();
        yardstickRuns(1); // any run of "t" under way when it was closed has finished on the one thread
        int afterClose = ticks.get();
        yardstickRuns(5);
        assertEquals(afterClose, ticks.get(), "no tick after close");
    }

    @Test
    void aTickStillRunningIsNotStartedAgain() {
        AtomicInteger started = new AtomicInteger();
        CompletableFuture<Void> firstDone = new CompletableFuture<>();
        clock.every("slow", PERIOD, () -> {
            started.incrementAndGet();
            return Uni.createFrom().completionStage(firstDone);
        });
        startYardstick();
        Await.until("the slow tick started", DEADLINE, () -> started.get() == 1);
        yardstickRuns(5);
        assertEquals(1, started.get(), "skipped while the first is still running");
        firstDone.complete(null);
        Await.until("the slow tick runs again once done", DEADLINE, () -> started.get() >= 2);
    }

    @Test
    void aFailingTickDoesNotEndTheSchedule() {
        AtomicInteger calls = new AtomicInteger();
        clock.every("failing", PERIOD, () -> {
            int n = calls.incrementAndGet();
            if (n == 1) {
                throw new IllegalStateException("thrown by the tick itself");
            }
            return n == 2 ? Uni.createFrom().failure(new IllegalStateException("failed Uni"))
                    : Uni.createFrom().voidItem();
        });
        Await.until("ticks go on after failures", DEADLINE, () -> calls.get() >= 4);
    }

    @Test
    void readsTheSystemClocks() {
        long before = System.nanoTime();
        long reading = clock.monotonicNanos();
        assertTrue(reading >= before && reading <= System.nanoTime());
        java.time.Instant wall = java.time.Instant.now();
        assertTrue(Duration.between(wall, clock.now()).abs().compareTo(Duration.ofSeconds(1)) < 0);
    }
}
