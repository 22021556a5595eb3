package io.leasehold.command;

import io.leasehold.config.LeaseholdConfig;
import java.time.Duration;

/** The {@code leasehold.lease.*} keys as command mode read them, checked by the service's own rules. */
public record LeaseKeys(String bucket, String key, Duration duration, Duration renewEvery, Duration renewDeadline,
        int replicas) implements LeaseholdConfig.LeaseConfig {
}
