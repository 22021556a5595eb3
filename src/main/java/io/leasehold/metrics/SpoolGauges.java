package io.leasehold.metrics;

import io.leasehold.drain.Drainer;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.SpoolCounts;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.util.function.ToDoubleFunction;

/**
 * Gauges of the items in each state, read from the census: a scrape costs no file call however large the
 * folders are (and may run where blocking is not allowed). Other instances' moves show after a recount.
 */
@Startup
@Singleton
public class SpoolGauges {

    private final ItemStore store;

    public SpoolGauges(ItemStore store, MeterRegistry registry, Drainer drainer) {
        this.store = store;
        gauge(registry, "pending", SpoolCounts::pending);
        gauge(registry, "claimed", SpoolCounts::claimed);
        gauge(registry, "scheduled", SpoolCounts::scheduled);
        gauge(registry, "retrying", SpoolCounts::retrying);
        gauge(registry, "done", SpoolCounts::done);
        gauge(registry, "failed", SpoolCounts::failed);
        Gauge.builder("leasehold.pending.oldest.age.seconds", this, g -> g.now().oldestPendingAgeMs() / 1000.0)
                .description("how long the oldest pending item has waited").register(registry);
        Gauge.builder("leasehold.claims.held", drainer, Drainer::claimsHeld)
                .description("claims this instance holds now").register(registry);
        Gauge.builder("leasehold.settlements.waiting", drainer, Drainer::settlementsWaiting)
                .description("held claims whose outcome could not be written yet").register(registry);
    }

    private SpoolCounts now() {
        return store.countsNow();
    }

    private void gauge(MeterRegistry registry, String state, ToDoubleFunction<SpoolCounts> value) {
        Gauge.builder("leasehold.items", this, g -> value.applyAsDouble(g.now())).tag("state", state)
                .description("items in each state (claimed: held now; scheduled and retrying: parked)")
                .register(registry);
    }
}
