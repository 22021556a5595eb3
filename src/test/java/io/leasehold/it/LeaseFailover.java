package io.leasehold.it;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.Await;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;

/** Failover time as an operator sees it: from the signal to the first /lease elsewhere saying "held". */
final class LeaseFailover {

    private LeaseFailover() {
    }

    /** SIGKILLs {@code holder}; answers how long until {@code taker} holds the lease. */
    static Duration afterKill(ServiceProcess holder, ServiceProcess taker, Duration deadline) {
        // Timed from before the signal is sent, so the figure can only be too long, never too short.
        long sent = System.nanoTime();
        holder.kill();
        return until(taker, sent, deadline);
    }

    /** SIGSTOPs {@code holder} (it stays frozen); answers how long until {@code taker} holds the lease. */
    static Duration afterFreeze(ServiceProcess holder, ServiceProcess taker, Duration deadline) {
        long sent = System.nanoTime();
        holder.freeze();
        return until(taker, sent, deadline);
    }

    private static Duration until(ServiceProcess taker, long sent, Duration deadline) {
        Await.value(taker.name() + " holds the lease", deadline, () -> LeaseCluster.lease(taker),
                (Lease l) -> l != null && l.mode().equals("held"));
        return Duration.ofNanos(System.nanoTime() - sent);
    }
}
