package io.leasehold.clock;

import io.leasehold.core.Clock;
import io.quarkus.arc.DefaultBean;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/** The system's UTC clock, with ticks from the Quarkus scheduler. */
@DefaultBean
@ApplicationScoped
public class SystemClock implements Clock {

    private final Scheduler scheduler;

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
}
