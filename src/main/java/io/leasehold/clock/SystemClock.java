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
 * another: deadlines must fire even while every worker is taken, and never wait behind a tick. The
 * service's (a bean) runs a tick's first time at once; the command line's ({@link #forCommands()}) after
 * one period.
 */
@DefaultBean
@ApplicationScoped
public class SystemClock implements TickingClock, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SystemClock.class);

    private final ScheduledExecutorService ticks = thread("leasehold-ticks");
    private final ScheduledExecutorService timers = thread("leasehold-timers");
    private final boolean firstTickAtOnce;

    /** The service's: the first run of a tick at once. */
    public SystemClock() {
        this(true);
    }

    private SystemClock(boolean firstTickAtOnce) {
        this.firstTickAtOnce = firstTickAtOnce;
    }

    /**
     * For code that runs without Quarkus (command mode): a tick's first run after one period, since what a
     * command ticks (a lease's renewals) has just been done when it starts. Close it when done.
     */
    public static SystemClock forCommands() {
        return new SystemClock(false);
    }

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
        // The service's first at once, as the Quarkus scheduler (which this replaces) ran it: a service that
        // lives less than a period (scale to zero) still does its housekeeping once.
        return ExecutorTicks.every(ticks, name, firstTickAtOnce ? Duration.ZERO : period, period, tick, LOG);
    }

    @Override
    public Timer timer(String name, Duration delay, Runnable task) {
        ScheduledFuture<?> job = timers.schedule(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warnf("timer %s failed: %s", name, e.toString()); // never kills the timer thread
            }
        }, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return () -> job.cancel(false);
    }

    /** One daemon thread, which never keeps a finished JVM alive. */
    private static ScheduledExecutorService thread(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    @PreDestroy
    @Override
    public void close() {
        ticks.shutdownNow();
        timers.shutdownNow();
    }
}
