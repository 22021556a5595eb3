package io.leasehold.health;

import io.leasehold.drain.Drainer;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * DOWN while outcomes wait to be written (a full disk, an I/O error while settling): the instance keeps
 * and renews those claims and tries again, but it cannot finish work until the spool takes writes. A pause
 * of the fleet's drain is shown, not DOWN: a paused instance still serves the API and renews what it holds.
 */
@Readiness
@Singleton
public class DrainReadiness implements HealthCheck {

    private final Drainer drainer;

    public DrainReadiness(Drainer drainer) {
        this.drainer = drainer;
    }

    @Override
    public HealthCheckResponse call() {
        int waiting = drainer.settlementsWaiting();
        return HealthCheckResponse.named("drain").status(waiting == 0).withData("settlementsWaiting", waiting)
                .withData("claimsHeld", drainer.claimsHeld()).withData("paused", drainer.pause().paused()).build();
    }
}
