package io.leasehold.metrics;

import io.leasehold.schedule.ScheduleEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/** The schedules' events as counters, one series per schedule: items this instance fired, fire times passed over. */
public final class ScheduleMeters implements ScheduleEvents {

    private final MeterRegistry registry;

    public ScheduleMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Each schedule's counters at 0 from the start, so a dashboard's increase() sees them before the first fire. */
    public ScheduleMeters(MeterRegistry registry, java.util.List<String> schedules) {
        this(registry);
        schedules.forEach(s -> {
            fired(s);
            missed(s);
        });
    }

    @Override
    public void fired(String schedule, String id, long epoch) {
        fired(schedule).increment();
    }

    @Override
    public void missed(String schedule, String why) {
        missed(schedule).increment();
    }

    private Counter fired(String schedule) {
        return Counter.builder("leasehold.schedule.fired").tag("schedule", schedule)
                .description("items of fire times this instance made (a fire time made by another instance is not counted)")
                .register(registry);
    }

    private Counter missed(String schedule) {
        return Counter.builder("leasehold.schedule.missed").tag("schedule", schedule)
                .description("times fire times were passed over without an item by the misfire policy")
                .register(registry);
    }

    @Override
    public void clockBehind(String schedule, Duration behind, boolean beyondSkew) {
        // Shown by ScheduleGauges from the views; the counters have nothing to add.
    }
}
