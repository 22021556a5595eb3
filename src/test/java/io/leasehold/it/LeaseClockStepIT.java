package io.leasehold.it;

import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.Await;
import io.leasehold.testing.Faketime;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The wall clock of the lease's holder stepped back an hour while it holds (an NTP step, by
 * libfaketime; its monotonic clock runs true), a candidate waiting: the holder goes on renewing under
 * the same epoch, its renewals now dated an hour behind, and the candidate goes on waiting. When the
 * service's ticks were timed on the wall clock (the Quarkus scheduler), they stopped for the hour: the
 * holder lost the lease at its renew-deadline and exited 3. LeaseCluster's timings (renew-every 1s,
 * renew-deadline 2s), so one missing tick would already cost the lease.
 */
class LeaseClockStepIT {

    /** Renewals after the step that must each be seen: well past one renew-deadline. */
    private static final int RENEWALS = 5;

    @Test
    void aHolderWhoseClockStepsBackAnHourKeepsRenewingItsEpoch() {
        try (LeaseCluster cluster = new LeaseCluster("clock-back", NatsServer.start(), LeaseCluster.work(""))) {
            steppedBack(cluster);
        }
    }

    private static void steppedBack(LeaseCluster cluster) {
        Faketime clock = Faketime.steppable(cluster.spool.root().resolve("holder.faketime"));
        ServiceProcess holder = cluster.start("holder", Map.of(), clock.env()).awaitReady(START);
        long epoch = FencingRig.awaitHeld(holder, 0).epoch();
        ServiceProcess candidate = cluster.start("candidate").awaitReady(START);
        Await.value("the candidate waits on epoch " + epoch, FencingRig.WITHIN, () -> lease(candidate),
                l -> l != null && l.mode().equals("waiting") && l.epoch() == epoch);

        clock.step("-1h");
        Instant steppedBefore = Instant.now().minus(Duration.ofMinutes(30));
        Set<String> renewals = new LinkedHashSet<>();
        Await.until(RENEWALS + " renewals of epoch " + epoch + " dated an hour behind", FencingRig.WITHIN, () -> {
            if (!holder.isAlive()) {
                throw new AssertionError("the holder exited " + holder.awaitExit(FencingRig.WITHIN) + " after its"
                        + " clock stepped back, renewals seen " + renewals + ":\n" + holder.logText());
            }
            // A look that got no answer (a busy machine) proves nothing either way: the next one counts.
            // A candidate's read that failed shows it waiting on no epoch: only a take would be wrong.
            Lease waiting = lease(candidate);
            if (waiting != null) {
                assertNotEquals("held", waiting.mode(), "the candidate does not take: " + waiting.raw());
            }
            Lease held = lease(holder);
            if (held != null) {
                assertEquals("held " + epoch, held.mode() + " " + held.epoch(), "the holder keeps its epoch: "
                        + held.raw());
                String renewedAt = FencingRig.renewedAt(held);
                if (renewedAt != null && Instant.parse(renewedAt).isBefore(steppedBefore)) {
                    renewals.add(renewedAt);
                }
            }
            return renewals.size() >= RENEWALS;
        });
        Await.value("the candidate still waits on epoch " + epoch, FencingRig.WITHIN, () -> lease(candidate),
                l -> l != null && l.mode().equals("waiting") && l.epoch() == epoch);
        System.out.printf("LeaseClockStepIT: the holder's clock stepped back 1 h; %d renewals of epoch %d seen after"
                + " it, dated %s; the candidate still waiting%n", renewals.size(), epoch, renewals);
    }
}
