package io.leasehold.health;

import io.leasehold.spool.SpoolLayout;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready while every folder of the spool is a writable directory. */
@Readiness
@Singleton
public class SpoolReadiness implements HealthCheck {

    private final SpoolLayout layout;

    public SpoolReadiness(SpoolLayout layout) {
        this.layout = layout;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("spool").status(layout.isUsable()).withData("dir", layout.root().toString())
                .build();
    }
}
