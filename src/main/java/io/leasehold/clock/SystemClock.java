package io.leasehold.clock;

import io.quarkus.arc.DefaultBean;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The system's UTC clock, with ticks ({@link ExecutorTicks}) on one thread of their own and timers on
 * another: deadlines must fire even while every worker is taken, and never wait behind a tick.
 */
@DefaultBean
@ApplicationScoped
public class SystemClock implements TickingClock {

    private static final Logger LOG = Logger.getLogger(SystemClock.class);

    private final ScheduledExecutorService ticks = thread("leasehold-ticks");
    private final ScheduledExecutorService timers = thread("leasehold-timers");

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
        // The first at once, as the Quarkus scheduler (which this replaces) ran it: a service that lives
        // less than a period (scale to zero) still does its housekeeping once.
        return ExecutorTicks.every(ticks, name, Duration.ZERO, period, tick, LOG);
    }

    @Override
    public Timer timer(String name, Duration delay, Runnable task) {
        return schedule(timers, name, delay, task, LOG);
    }

    /** Shared by both system clocks: one daemon thread, which never keeps a finished JVM alive. */
    static ScheduledExecutorService thread(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Shared by both system clocks: a task that throws is logged, and never kills the timer thread. */
    static Timer schedule(ScheduledExecutorService on, String name, Duration delay, Runnable task, Logger log) {
        ScheduledFuture<?> job = on.schedule(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.warnf("timer %s failed: %s", name, e.toString());
            }
        }, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return () -> job.cancel(false);
    }

    @PreDestroy
    void stop() {
        ticks.shutdownNow();
        timers.shutdownNow();
    }
}
