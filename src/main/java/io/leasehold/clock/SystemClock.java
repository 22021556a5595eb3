package io.leasehold.clock;

import io.quarkus.arc.DefaultBean;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
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
 * The system's UTC clock, with ticks from the Quarkus scheduler and timers on one thread of its own
 * (deadlines must fire even while every worker is taken).
 */
@DefaultBean
@ApplicationScoped
public class SystemClock implements TickingClock {

    private static final Logger LOG = Logger.getLogger(SystemClock.class);

    private final Scheduler scheduler;
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "leasehold-timers");
        t.setDaemon(true);
        return t;
    });

    public SystemClock(Scheduler scheduler) {
        this.scheduler = scheduler;
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
        scheduler.newJob(name)
                .setInterval(period.toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setAsyncTask(execution -> tick.get())
                .schedule();
        return () -> scheduler.unscheduleJob(name);
    }

    @Override
    public Timer timer(String name, Duration delay, Runnable task) {
        return schedule(timers, name, delay, task, LOG);
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
        timers.shutdownNow();
    }
}
