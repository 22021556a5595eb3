package io.leasehold.metrics;

import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.schedule.ScheduleView;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.function.ToDoubleFunction;

/**
 * Each schedule as gauges, read from the views the firing keeps (no file or bus call in a scrape): its last
 * fire time and next one, whether it is late, paused, and how far this instance's clock is behind its mark.
 * Every instance shows the fleet's marks, so an alert needs no holder to be up to say a schedule is late.
 */
public final class ScheduleGauges {

    private ScheduleGauges() {
    }

    public static void register(ScheduleFiring firing, MeterRegistry registry) {
        for (var s : firing.schedules()) {
            String name = s.name();
            gauge(registry, firing, name, "leasehold.schedule.last.fire.time", "seconds",
                    "the fire time of the schedule's last item, seconds since 1970 (0: none yet)",
                    v -> v.mark() == null || v.mark().lastFired() == null ? 0 : seconds(v.mark().lastFired().fireTime()));
            gauge(registry, firing, name, "leasehold.schedule.next.fire.time", "seconds",
                    "the schedule's next fire time, seconds since 1970 (0: none)", v -> v.next() == null ? 0 : seconds(v.next()));
            gauge(registry, firing, name, "leasehold.schedule.late", null,
                    "1 while a fire time fell over 60s ago and no instance has fired it", v -> v.late() ? 1 : 0);
            gauge(registry, firing, name, "leasehold.schedule.paused", null, "1 while the schedule is paused",
                    v -> v.paused() ? 1 : 0);
            gauge(registry, firing, name, "leasehold.schedule.problem", null,
                    "1 while this instance cannot read or write the schedule's record in the spool (GET /schedules says why)",
                    v -> v.problem() == null ? 0 : 1);
            gauge(registry, firing, name, "leasehold.schedule.clock.behind", "seconds",
                    "how far this instance's clock is behind the schedule's last fire time (0: not behind)",
                    v -> v.behind().toMillis() / 1000.0);
        }
    }

    private static void gauge(MeterRegistry registry, ScheduleFiring firing, String name, String meter, String unit,
            String description, ToDoubleFunction<ScheduleView> value) {
        Gauge.builder(meter, firing, f -> f.views().stream().filter(v -> v.schedule().name().equals(name)).findFirst()
                .map(value::applyAsDouble).orElse(Double.NaN))
                .tag("schedule", name).baseUnit(unit).description(description).register(registry);
    }

    private static double seconds(Instant t) {
        return t.toEpochMilli() / 1000.0;
    }
}
