package io.leasehold.it;

import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.awaitOneHolder;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bus goes away under packaged instances: NATS stopped past the renew-deadline costs the holder its
 * lease (exit 3) and a candidate takes it when NATS is back; NATS wiped and restarted empty still gives
 * a higher epoch than any before, because the floor kept in the shared spool moves the new bucket past it.
 */
class LeaseBusIT {

    private LeaseCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void natsStoppedPastTheDeadlineCostsTheHolderItsLeaseAndACandidateTakesItWhenNatsIsBack() {
        cluster = new LeaseCluster("nats-stopped", NatsServer.start(), LeaseCluster.work(""));
        ServiceProcess a = cluster.start("a");
        ServiceProcess b = cluster.start("b");
        a.awaitReady(START);
        b.awaitReady(START);
        ServiceProcess holder = awaitOneHolder(List.of(a, b), Duration.ofSeconds(20));
        ServiceProcess candidate = holder == a ? b : a;
        long epoch = lease(holder).epoch();

        cluster.nats.stop();
        long stopped = System.nanoTime();
        // Readiness is looked at until the exit: DOWN (503) may show in the short time between the two.
        boolean[] sawDown = new boolean[1];
        Await.until(holder + " exits", Duration.ofSeconds(30), () -> {
            sawDown[0] |= holder.status("/q/health/ready") == 503;
            return !holder.isAlive();
        });
        Duration lasted = Duration.ofNanos(System.nanoTime() - stopped);
        assertEquals(3, holder.awaitExit(Duration.ofSeconds(1)), "exit status 3, lease lost:\n" + holder.logText());
        System.out.printf("holder exited 3 %d ms after NATS stopped; readiness DOWN seen before: %s%n",
                lasted.toMillis(), sawDown[0]);
        // The deadline counts from the last successful renewal, sent up to one renew-every before the stop.
        assertTrue(lasted.compareTo(LeaseCluster.RENEW_DEADLINE.minus(LeaseCluster.RENEW_EVERY)) >= 0,
                "a short outage is not a loss at once: exited " + lasted + " after the stop");
        assertTrue(LeaseCluster.linesWith(holder, "the controller lease was lost (epoch " + epoch + ")") == 1,
                holder.logText());
        Lease waiting = lease(candidate);
        assertNotNull(waiting, "the candidate serves on without NATS");
        assertFalse(waiting.mode().equals("held"), "nobody takes the lease without the bus: " + waiting);

        // The supervisor restarts the lost holder as a candidate; NATS comes back with its data.
        ServiceProcess restarted = cluster.start("a-again");
        cluster.nats.restart();
        restarted.awaitReady(START);
        ServiceProcess next = awaitOneHolder(List.of(candidate, restarted), Duration.ofSeconds(30));
        assertTrue(lease(next).epoch() > epoch, "higher epoch than " + epoch + ": " + lease(next));
    }

    @Test
    void afterTheStoreIsWipedTheNextEpochIsHigherThanEveryEarlierOne() {
        cluster = new LeaseCluster("nats-wiped", NatsServer.start(), LeaseCluster.work(""));
        ServiceProcess a = cluster.start("a");
        ServiceProcess b = cluster.start("b");
        ServiceProcess c = cluster.start("c");
        a.awaitReady(START);
        b.awaitReady(START);
        c.awaitReady(START);
        ServiceProcess first = awaitOneHolder(List.of(a, b, c), Duration.ofSeconds(20));
        long firstEpoch = lease(first).epoch();
        List<ServiceProcess> rest = List.of(a, b, c).stream().filter(p -> p != first).toList();
        first.kill();
        ServiceProcess second = awaitOneHolder(rest, Duration.ofSeconds(30));
        long secondEpoch = lease(second).epoch();
        ServiceProcess survivor = rest.stream().filter(p -> p != second).findFirst().orElseThrow();
        assertTrue(secondEpoch > firstEpoch, secondEpoch + " after " + firstEpoch);

        cluster.nats.wipeStore();
        assertEquals(3, second.awaitExit(Duration.ofSeconds(30)), "the holder loses its lease:\n" + second.logText());
        cluster.nats.restart();

        // The instance that waited through the wipe takes the lease in the new, empty bucket.
        Lease third = Await.value(survivor + " holds the lease again", Duration.ofSeconds(30), () -> lease(survivor),
                l -> l != null && l.mode().equals("held"));
        assertTrue(third.epoch() > secondEpoch && third.epoch() > firstEpoch,
                "epoch " + third.epoch() + " is above every earlier one (" + firstEpoch + ", " + secondEpoch + ")");
        assertTrue(third.reset(), "/lease reports the reset: " + third.raw());
        // Past the floor, which holds the second holder's last revision: its epoch or a renewal after it.
        assertEquals(1, LeaseCluster.linesWith(survivor, "its revisions were moved past "),
                "the log says it once:\n" + survivor.logText());
    }
}
