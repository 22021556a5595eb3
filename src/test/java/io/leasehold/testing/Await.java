package io.leasehold.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition with a deadline, for tests that watch other processes or real I/O. It looks
 * again after 1 ms, then twice as long each time up to every 50 ms (a condition true at once costs
 * nothing; one that takes seconds costs a look per 50 ms, each often an HTTP call or a log read by
 * processes that share two cores), and fails with the description when the deadline passes; it is
 * never used to let a lease pass (that is what {@link DrivenClock} is for).
 */
public final class Await {

    private static final long FIRST_PAUSE_NANOS = Duration.ofMillis(1).toNanos();
    private static final long LONGEST_PAUSE_NANOS = Duration.ofMillis(50).toNanos();

    private Await() {
    }

    public static void until(String what, Duration deadline, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        long pause = FIRST_PAUSE_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("timed out after " + deadline + " waiting for: " + what);
            }
            pause = pauseAndLengthen(pause);
        }
    }

    /** Like {@link #until} but reports the last value seen when the deadline passes. */
    public static <T> T value(String what, Duration deadline, Supplier<T> value, java.util.function.Predicate<T> good) {
        long end = System.nanoTime() + deadline.toNanos();
        long pause = FIRST_PAUSE_NANOS;
        T last = value.get();
        while (!good.test(last)) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("timed out after " + deadline + " waiting for: " + what + "; last seen: " + last);
            }
            pause = pauseAndLengthen(pause);
            last = value.get();
        }
        return last;
    }

    /** Pauses {@code pause}; answers the next one. */
    private static long pauseAndLengthen(long pause) {
        LockSupport.parkNanos(pause);
        return Math.min(pause * 2, LONGEST_PAUSE_NANOS);
    }
}
