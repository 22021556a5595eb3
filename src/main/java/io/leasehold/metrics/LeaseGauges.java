package io.leasehold.metrics;

import io.leasehold.lease.LeaseFace;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The controller lease as gauges: the epoch this instance acts under, and one series per mode, 1 for the
 * mode it stands in now and 0 for the others, so an alert can say "lost" or "nobody holds it" across the
 * fleet without parsing text. Read from the lease's last standing: a scrape makes no call to NATS.
 */
@Startup
@Singleton
public class LeaseGauges {

    /** Every mode a standing can have (docs/http-api.md, {@code GET /lease}). */
    static final List<String> MODES = List.of("held", "waiting", "unleased", "no-bus", "lost");

    public LeaseGauges(LeaseFace lease, MeterRegistry registry) {
        Gauge.builder("leasehold.lease.epoch", lease, l -> l.standing().epoch())
                .description("the epoch this instance acts under (the holder's while waiting; 0 with none)")
                .register(registry);
        for (String mode : MODES) {
            Gauge.builder("leasehold.lease.mode", lease, l -> l.standing().mode().equals(mode) ? 1 : 0)
                    .tag("mode", mode).description("1 for the mode this instance stands in towards the lease")
                    .register(registry);
        }
    }
}
