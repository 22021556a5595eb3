package io.leasehold.clock;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The system's UTC clock with ticks from one scheduled thread, for code that runs without Quarkus
 * (command mode): each tick is subscribed to, not awaited, so one slow tick never holds up another;
 * a tick still running when its next one is due is skipped, as with the Quarkus scheduler.
 */
public final class ScheduledSystemClock implements TickingClock, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ScheduledSystemClock.class);

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "leasehold-ticks");
        t.setDaemon(true); // never keeps a finished command's JVM alive
        return t;
    });

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
        AtomicBoolean running = new AtomicBoolean();
        long nanos = period.toNanos();
        ScheduledFuture<?> job = scheduler.scheduleWithFixedDelay(() -> {
            if (!running.compareAndSet(false, true)) {
                return;
            }
            try {
                tick.get().subscribe().with(done -> running.set(false), failure -> {
                    running.set(false);
                    LOG.warnf("tick %s failed: %s", name, failure.toString());
                });
            } catch (RuntimeException e) {
                // An exception escaping here would cancel the schedule for good.
                running.set(false);
                LOG.warnf("tick %s failed: %s", name, e.toString());
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
        return () -> job.cancel(false);
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
