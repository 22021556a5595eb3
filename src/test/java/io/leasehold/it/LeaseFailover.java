package io.leasehold.it;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.Await;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.List;

/** Failover time as an operator sees it: from the signal to the first /lease elsewhere saying "held". */
final class LeaseFailover {

    /** How long it took, and which of the candidates took the lease. */
    record Taken(Duration after, ServiceProcess by) {
    }

    private LeaseFailover() {
    }

    /** SIGKILLs {@code holder}; answers how long until one of {@code takers} holds the lease. */
    static Taken afterKill(ServiceProcess holder, List<ServiceProcess> takers, Duration deadline) {
        // Timed from before the signal is sent, so the figure can only be too long, never too short.
        long sent = System.nanoTime();
        holder.kill();
        return until(takers, sent, deadline);
    }

    /** SIGSTOPs {@code holder} (it stays frozen); answers how long until one of {@code takers} holds it. */
    static Taken afterFreeze(ServiceProcess holder, List<ServiceProcess> takers, Duration deadline) {
        long sent = System.nanoTime();
        holder.freeze();
        return until(takers, sent, deadline);
    }

    private static Taken until(List<ServiceProcess> takers, long sent, Duration deadline) {
        ServiceProcess[] by = new ServiceProcess[1];
        Await.until("one of " + takers + " holds the lease", deadline, () -> {
            for (ServiceProcess taker : takers) {
                Lease l = LeaseCluster.lease(taker);
                if (l != null && l.mode().equals("held")) {
                    by[0] = taker;
                    return true;
                }
            }
            return false;
        });
        return new Taken(Duration.ofNanos(System.nanoTime() - sent), by[0]);
    }
}
