package io.leasehold.metrics;

import io.leasehold.core.Clock;
import io.leasehold.drain.Drainer;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.PosixItemStore;
import io.leasehold.spool.SpoolCounts;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import org.jboss.logging.Logger;

/**
 * Gauges of the spool's folders. Counting a large folder costs a listing, so the counts are taken on
 * a tick of their own and a scrape only reads the last ones.
 */
@Startup
@Singleton
public class SpoolGauges {

    private static final Logger LOG = Logger.getLogger(SpoolGauges.class);
    static final Duration REFRESH = Duration.ofSeconds(5);

    private final ItemStore store;
    private final AtomicReference<SpoolCounts> last = new AtomicReference<>(new SpoolCounts(0, 0, 0, 0, 0));

    public SpoolGauges(PosixItemStore store, MeterRegistry registry, Drainer drainer, Clock clock) {
        this.store = store;
        gauge(registry, "pending", SpoolCounts::pending);
        gauge(registry, "claimed", SpoolCounts::claimed);
        gauge(registry, "done", SpoolCounts::done);
        gauge(registry, "failed", SpoolCounts::failed);
        Gauge.builder("leasehold.pending.oldest.age.seconds", last, c -> c.get().oldestPendingAgeMs() / 1000.0)
                .description("how long the oldest pending item has waited").register(registry);
        Gauge.builder("leasehold.claims.held", drainer, Drainer::claimsHeld)
                .description("claims this instance holds now").register(registry);
        Gauge.builder("leasehold.settlements.waiting", drainer, Drainer::settlementsWaiting)
                .description("held claims whose outcome could not be written yet").register(registry);
        clock.every("leasehold-gauges", REFRESH, this::refresh);
    }

    private void gauge(MeterRegistry registry, String state, ToDoubleFunction<SpoolCounts> value) {
        Gauge.builder("leasehold.items", last, c -> value.applyAsDouble(c.get())).tag("state", state)
                .description("items in each folder of the spool").register(registry);
    }

    Uni<Void> refresh() {
        return Uni.createFrom().item(() -> {
            try {
                last.set(store.counts());
            } catch (IOException e) {
                LOG.debugf("could not count the spool: %s", e.getMessage());
            }
            return (Void) null;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
