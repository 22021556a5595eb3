package io.leasehold.metrics;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.spool.ClaimAges;
import io.leasehold.spool.ItemStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Stuck claims: how long the oldest running claim of the whole spool has been held, and how many have
 * been held past {@code leasehold.metrics.stuck-after-leases} claim leases. Every holder's claims count,
 * since a dead or frozen holder's is the one an operator must see; parked ones (retrying, scheduled) run
 * nothing and do not. Read from memory ({@link ItemStore#claimAgesNow}): a scrape makes no file or network call.
 */
@Startup
@Singleton
public class ClaimAgeGauges {

    private final ItemStore store;
    private final Duration stuckAfter;

    public ClaimAgeGauges(ItemStore store, MeterRegistry registry, LeaseholdConfig config) {
        this.store = store;
        this.stuckAfter = config.claim().lease().multipliedBy(config.metrics().stuckAfterLeases());
        Gauge.builder("leasehold.claims.oldest.age.seconds", this, g -> g.now().oldestMs() / 1000.0)
                .description("age of the oldest running claim in the spool, any holder's (parked ones left out): "
                        + "from the earliest lease reading seen of it, on its holder's clock, to this instance's "
                        + "clock; a claim taken before this instance saw it counts from its first sighting's reading")
                .register(registry);
        Gauge.builder("leasehold.claims.stuck", this, g -> g.now().olderThanBound())
                .description("running claims in the spool, any holder's, held longer than "
                        + "leasehold.metrics.stuck-after-leases claim leases")
                .register(registry);
    }

    private ClaimAges now() {
        return store.claimAgesNow(stuckAfter);
    }
}
