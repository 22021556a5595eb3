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
     * Completes once {@code delay} has passed: for a wait shorter than a tick's period, so that a
     * deadline falling between two ticks is met when it falls rather than up to a period later.
     */
    default Uni<Void> after(Duration delay) {
        return Uni.createFrom().voidItem().onItem().delayIt().by(delay);
    }

    /** A running periodic tick. */
    interface Ticks extends AutoCloseable {
        @Override
        void close();
    }
}
