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

    @Override
    public void fired(String schedule, String id, long epoch) {
        Counter.builder("leasehold.schedule.fired").tag("schedule", schedule)
                .description("items of fire times this instance made (a fire time made by another instance is not counted)")
                .register(registry).increment();
    }

    @Override
    public void missed(String schedule, String why) {
        Counter.builder("leasehold.schedule.missed").tag("schedule", schedule)
                .description("times fire times were passed over without an item by the misfire policy")
                .register(registry).increment();
    }

    @Override
    public void clockBehind(String schedule, Duration behind, boolean beyondSkew) {
        // Shown by ScheduleGauges from the views; the counters have nothing to add.
    }
}
