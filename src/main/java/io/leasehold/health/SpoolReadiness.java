package io.leasehold.health;

import io.leasehold.spool.SpoolUpkeep;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready while every folder of the spool is a writable directory. */
@Readiness
@Singleton
public class SpoolReadiness implements HealthCheck {

    private final SpoolUpkeep spool;

    public SpoolReadiness(SpoolUpkeep spool) {
        this.spool = spool;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("spool").status(spool.usable()).withData("dir", spool.where())
                .build();
    }
}
