package io.leasehold.core;

import java.time.Duration;
import java.time.Instant;

/**
 * The one source of wall-clock and monotonic readings and of one-shot timers. Production uses the
 * system clock; tests drive it by hand, so a lease can pass without anyone waiting for it. The
 * periodic ticks that drive renewals and scans return a Mutiny {@code Uni}, so they live outside
 * the core, in {@code io.leasehold.clock.TickingClock}.
 */
public interface Clock {

    Instant now();

    /**
     * A monotonic reading in nanoseconds from an arbitrary origin: only differences mean anything.
     * Deadlines of this process's own lease are counted on it, never on wall-clock readings.
     */
    long monotonicNanos();

    /**
     * Runs {@code task} once, {@code delay} from now on the monotonic clock, on a timer thread of its
     * own: never behind the worker pool, so a deadline fires when it falls, starved or not. The task
     * must be short (hand longer work to an executor); closing the handle before it ran cancels it.
     */
    Timer timer(String name, Duration delay, Runnable task);

    /** A one-shot timer that has not fired yet, or has. */
    interface Timer extends AutoCloseable {
        @Override
        void close();
    }
}
