package io.leasehold.health;

import io.leasehold.lease.LeaseFace;
import io.leasehold.lease.Standing;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/** DOWN once the controller lease was lost (the process is about to exit 3); says the mode otherwise. */
@Readiness
@Singleton
public class LeaseReadiness implements HealthCheck {

    private final LeaseFace lease;

    public LeaseReadiness(LeaseFace lease) {
        this.lease = lease;
    }

    @Override
    public HealthCheckResponse call() {
        Standing standing = lease.standing();
        HealthCheckResponseBuilder answer = HealthCheckResponse.named("lease").status(!standing.lost())
                .withData("mode", standing.mode()).withData("epoch", standing.epoch());
        if (standing.reason() != null) {
            answer.withData("reason", standing.reason());
        }
        return answer.build();
    }
}
