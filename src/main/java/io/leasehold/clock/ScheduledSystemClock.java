package io.leasehold.clock;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The system's UTC clock with ticks ({@link ExecutorTicks}) and timers on one scheduled thread, for
 * code that runs without Quarkus (command mode).
 */
public final class ScheduledSystemClock implements TickingClock, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ScheduledSystemClock.class);

    private final ScheduledExecutorService scheduler = SystemClock.thread("leasehold-ticks");

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public long monotonicNanos() {
        return System.nanoTime();
    }

    @Override
    public Ticks every(String name, Duration period, Supplier<Uni<Void>> tick) {
        return ExecutorTicks.every(scheduler, name, period, period, tick, LOG);
    }

    @Override
    public Timer timer(String name, Duration delay, Runnable task) {
        return SystemClock.schedule(scheduler, name, delay, task, LOG);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
