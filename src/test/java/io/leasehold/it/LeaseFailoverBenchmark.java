package io.leasehold.it;

import static io.leasehold.it.LeaseCluster.DURATION;
import static io.leasehold.it.LeaseCluster.RENEW_DEADLINE;
import static io.leasehold.it.LeaseCluster.RENEW_EVERY;

import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (run with -Pbenchmark): failover time of the controller lease after SIGKILL
 * and after SIGSTOP of the holder, duration=3s renew-deadline=2s renew-every=1s, ten rounds each,
 * printed as min/p50/max next to the bound duration + renew-every. Three packaged instances at a time;
 * each round's lost holder is replaced by a fresh instance. The signal is sent at a random moment within
 * a renewal period, so the rounds sample every phase between the holder's renewals and the candidates'
 * ticks.
 */
@Tag("benchmark")
class LeaseFailoverBenchmark {

    private static final int ROUNDS = 10;
    private static final int INSTANCES = 3;

    private final Random random = new Random();
    private final List<ServiceProcess> alive = new ArrayList<>();
    private LeaseCluster cluster;
    private int started;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void failoverAfterKillAndAfterFreeze() {
        cluster = new LeaseCluster("failover-bench", NatsServer.start(), LeaseCluster.work(""));
        List<Long> killed = rounds(true);
        List<Long> frozen = rounds(false);
        System.out.printf("%nlease failover, duration=%ds renew-deadline=%ds renew-every=%ds, %d rounds each:%n",
                DURATION.toSeconds(), RENEW_DEADLINE.toSeconds(), RENEW_EVERY.toSeconds(), ROUNDS);
        report("SIGKILL", killed);
        report("SIGSTOP", frozen);
    }

    private List<Long> rounds(boolean kill) {
        List<Long> millis = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            topUp();
            List<ServiceProcess> ready = alive.stream().filter(p -> p.status("/q/health/ready") == 200).toList();
            ServiceProcess holder = LeaseCluster.awaitOneHolder(ready, Duration.ofSeconds(30));
            // Every other live instance is a candidate, also one still starting: whoever takes it counts.
            List<ServiceProcess> takers = alive.stream().filter(p -> p != holder).toList();
            // A random moment within one renewal period.
            long at = System.nanoTime() + (long) (random.nextDouble() * RENEW_EVERY.toNanos());
            Await.until("a random moment", Duration.ofSeconds(5), () -> System.nanoTime() - at >= 0);
            LeaseFailover.Taken taken = kill
                    ? LeaseFailover.afterKill(holder, takers, Duration.ofSeconds(30))
                    : LeaseFailover.afterFreeze(holder, takers, Duration.ofSeconds(30));
            System.out.printf("%s round %d: %d ms (%s -> %s)%n", kill ? "SIGKILL" : "SIGSTOP", round + 1,
                    taken.after().toMillis(), holder.name(), taken.by().name());
            millis.add(taken.after().toMillis());
            holder.close(); // a frozen one is killed too: its exit 3 on resume is LeaseHoldingIT's subject
            alive.remove(holder);
        }
        return millis;
    }

    /** Keeps three instances, at least two of them ready, so every round has a holder and a candidate. */
    private void topUp() {
        while (alive.size() < INSTANCES) {
            alive.add(cluster.start("i" + (++started)));
        }
        Await.until("two instances ready", LeaseCluster.START,
                () -> alive.stream().filter(p -> p.status("/q/health/ready") == 200).count() >= 2);
    }

    private static void report(String what, List<Long> millis) {
        List<Long> sorted = millis.stream().sorted().toList();
        int n = sorted.size();
        long p50 = (sorted.get((n - 1) / 2) + sorted.get(n / 2)) / 2;
        long bound = DURATION.plus(RENEW_EVERY).toMillis();
        System.out.printf("  after %s: min %d ms, p50 %d ms, max %d ms (bound duration + renew-every = %d ms); "
                + "all: %s%n", what, sorted.get(0), p50, sorted.get(n - 1),
                bound, millis);
    }
}
