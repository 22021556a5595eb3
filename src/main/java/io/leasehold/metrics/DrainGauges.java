package io.leasehold.metrics;

import io.leasehold.drain.Drainer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;

/**
 * The fleet's pause as this instance obeys it: 1 while paused, so a dashboard shows why nothing is claimed and
 * an alert can catch a pause forgotten. Read from the last poll tick's reading: a scrape touches no store.
 */
@Startup
@Singleton
public class DrainGauges {

    public DrainGauges(Drainer drainer, MeterRegistry registry) {
        Gauge.builder("leasehold.drain.paused", drainer, d -> d.pause().paused() ? 1 : 0)
                .description("1 while the fleet's drain is paused by hand (POST /drain/pause), as this instance last read it")
                .register(registry);
    }
}
