package io.leasehold.config;

import io.leasehold.core.Backoff;
import io.leasehold.core.LeaseTerms;
import io.leasehold.drain.DrainSettings;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.lease.WallClockFloor;

/**
 * The settings records made from the configuration, the one place each is put together: their
 * constructors own the rules of their values ({@link io.leasehold.core.InvalidSetting} names the key),
 * and {@link ConfigCheck} builds them to collect those refusals before anything starts.
 */
public final class ConfigRecords {

    private ConfigRecords() {
    }

    public static LeaseTerms leaseTerms(LeaseholdConfig config) {
        LeaseholdConfig.ClaimConfig claim = config.claim();
        return new LeaseTerms(claim.lease(), claim.renewalsPerLease(), claim.maxSkew());
    }

    /**
     * What a new lease store is moved past where no epoch floor outlives the bus's data: with the
     * JetStream spool an instance may run with no volume (Knative); null for the directory spool,
     * whose shared folder keeps the floor (docs/lease.md, "Epochs without a volume").
     */
    public static WallClockFloor wallFloor(LeaseholdConfig config) {
        return config.spool().kind().equals("jetstream") ? new WallClockFloor(config.claim().maxSkew()) : null;
    }

    public static Backoff backoff(LeaseholdConfig config) {
        return new Backoff(config.drain().backoffInitial(), config.drain().backoffMax());
    }

    public static DrainSettings drainSettings(LeaseholdConfig config) {
        return drainSettings(config, backoff(config));
    }

    /** With {@code backoff} given, so the check can still ask the rest when the backoff was refused (null). */
    static DrainSettings drainSettings(LeaseholdConfig config, Backoff backoff) {
        LeaseholdConfig.DrainConfig drain = config.drain();
        return new DrainSettings(drain.concurrency(), drain.maxAttempts(), drain.pollInterval(),
                config.handler().timeout(), backoff, drain.shutdownTimeout(), config.claim().takeover());
    }

    public static LeaseTiming leaseTiming(LeaseholdConfig.LeaseConfig lease) {
        return new LeaseTiming(lease.duration(), lease.renewEvery(), lease.renewDeadline());
    }
}
