package io.leasehold.clock;

import io.leasehold.core.Clock;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The core's {@link Clock} plus the periodic ticks that drive renewals and scans. Kept out of the
 * core because a tick is a Mutiny {@link Uni}: the core stays free of framework imports, and code
 * that only reads the time or sets a timer still takes a plain {@link Clock}.
 */
public interface TickingClock extends Clock {

    /**
     * Runs {@code tick} every {@code period} until the returned handle is closed. A tick never runs
     * twice at once: on the system clocks, one that falls due while the previous one still runs is run
     * as soon as that one ends.
     */
    Ticks every(String name, Duration period, Supplier<Uni<Void>> tick);

    /** A running periodic tick. */
    interface Ticks extends AutoCloseable {
        @Override
        void close();
    }
}
