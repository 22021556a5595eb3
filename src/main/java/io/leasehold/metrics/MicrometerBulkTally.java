package io.leasehold.metrics;

import io.leasehold.spool.BulkActions;
import io.leasehold.spool.ItemState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;

/** What bulk calls and retention moved, as Micrometer counters scraped at /q/metrics. */
@Singleton
public class MicrometerBulkTally implements BulkActions.Tally {

    private final Counter retried;
    private final Counter purgedDone;
    private final Counter purgedFailed;

    public MicrometerBulkTally(MeterRegistry registry) {
        this.retried = Counter.builder("leasehold.items.retried")
                .description("failed items moved back to pending by POST /items/retry").register(registry);
        this.purgedDone = purged(registry, ItemState.DONE);
        this.purgedFailed = purged(registry, ItemState.FAILED);
    }

    private static Counter purged(MeterRegistry registry, ItemState state) {
        return Counter.builder("leasehold.items.purged").tag("state", state.label())
                .description("settled items removed by DELETE /items or by retention").register(registry);
    }

    @Override
    public void retried(long n) {
        retried.increment(n);
    }

    @Override
    public void purged(ItemState state, long n) {
        (state == ItemState.DONE ? purgedDone : purgedFailed).increment(n);
    }
}
