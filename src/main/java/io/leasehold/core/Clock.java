package io.leasehold.core;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * The one source of wall-clock readings and of the ticks that drive renewals and scans.
 * Production uses the system clock and the Quarkus scheduler; tests drive both by hand, so a
 * lease can pass without anyone waiting for it.
 */
public interface Clock {

    Instant now();

    /**
     * A monotonic reading in nanoseconds from an arbitrary origin: only differences mean anything.
     * Deadlines of this process's own lease are counted on it, never on wall-clock readings.
     */
    long monotonicNanos();

    /**
     * Runs {@code tick} every {@code period} until the returned handle is closed. A tick that is
     * still running when the next one is due is not started twice.
     */
    Ticks every(String name, Duration period, Supplier<Uni<Void>> tick);

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

    /** A running periodic tick. */
    interface Ticks extends AutoCloseable {
        @Override
        void close();
    }
}
