package io.leasehold.app;

import io.leasehold.clock.TickingClock;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.lease.Holders;
import io.leasehold.metrics.ScheduleGauges;
import io.leasehold.metrics.ScheduleMeters;
import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.SpoolBackend;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Produces;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The recurring schedules' wiring: the firing on the spool's book, gated by the controller lease, and its
 * trigger. quarkus-scheduler calls {@link #everySecond} on the wall clock; the tick itself runs on a thread of
 * its own, so a worker pool taken by slow uploads or handlers never delays a fire time (docs/schedules.md).
 * Tests leave the trigger off ({@code quarkus.scheduler.enabled=false}) and call the firing's tick themselves
 * on the driven clock.
 */
@Singleton
public class ScheduleWiring {

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "leasehold-schedules");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean ticking = new AtomicBoolean();
    /** Set once the start has built the firing: the trigger never builds it (nor the spool) itself. */
    private volatile ScheduleFiring started;

    /** At start, so the schedules' gauges are there from the first scrape. */
    @Produces
    @Singleton
    @Startup
    ScheduleFiring firing(LeaseholdConfig config, SpoolBackend backend, ItemStore store, LeaseService lease,
            TickingClock clock, MeterRegistry registry) {
        var schedules = ConfigRecords.schedules(config);
        ScheduleFiring firing = new ScheduleFiring(schedules, backend.schedules(), store, lease.holderGate(), clock,
                config.claim().maxSkew(), config.item().maxBytes().asLongValue(), Holders.thisProcess(clock).instance(),
                new ScheduleMeters(registry, schedules.stream().map(s -> s.name()).toList()));
        ScheduleGauges.register(firing, registry);
        return firing;
    }

    /**
     * The scheduler is started halted ({@code quarkus.scheduler.start-mode=halted}) and resumed only here, once
     * the start is over: a start that fails (a NATS that cannot be reached, a spool that cannot be made) stays
     * the one line naming the key, with no trigger fired meanwhile (a trigger firing while the failed start
     * shuts CDI down logged an error of its own), and no tick opens the spool on the event loop.
     */
    void startedWith(@Observes @Priority(Integer.MAX_VALUE) StartupEvent start, ScheduleFiring firing,
            io.quarkus.scheduler.Scheduler scheduler) {
        this.started = firing;
        if (scheduler.isStarted()) { // not where quarkus.scheduler.enabled=false (the tests tick by hand)
            scheduler.resume();
        }
    }

    /** On the event loop, not a worker: a worker pool taken by slow uploads or handlers must not delay it. */
    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    @NonBlocking
    void everySecond() {
        ScheduleFiring firing = this.started;
        if (firing == null || firing.schedules().isEmpty() || !ticking.compareAndSet(false, true)) {
            return; // not started yet, none configured, or the last tick still runs (a slow spool)
        }
        try {
            thread.execute(() -> {
                try {
                    firing.tick();
                } finally {
                    ticking.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            ticking.set(false); // the service is stopping: no more ticks
        }
    }

    @PreDestroy
    void stop() {
        thread.shutdownNow();
    }
}
