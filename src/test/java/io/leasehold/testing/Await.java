package io.leasehold.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition with a deadline, for tests that watch other processes or real I/O. It looks
 * again every few milliseconds and fails with the description when the deadline passes; it is never
 * used to let a lease pass (that is what {@link DrivenClock} is for).
 */
public final class Await {

    private static final long LOOK_EVERY_NANOS = Duration.ofMillis(20).toNanos();

    private Await() {
    }

    public static void until(String what, Duration deadline, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("timed out after " + deadline + " waiting for: " + what);
            }
            LockSupport.parkNanos(LOOK_EVERY_NANOS);
        }
    }

    /** Like {@link #until} but reports the last value seen when the deadline passes. */
    public static <T> T value(String what, Duration deadline, Supplier<T> value, java.util.function.Predicate<T> good) {
        long end = System.nanoTime() + deadline.toNanos();
        T last = value.get();
        while (!good.test(last)) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("timed out after " + deadline + " waiting for: " + what + "; last seen: " + last);
            }
            LockSupport.parkNanos(LOOK_EVERY_NANOS);
            last = value.get();
        }
        return last;
    }
}
