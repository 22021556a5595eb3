package io.leasehold.it;

import static io.leasehold.it.LeaseCluster.DURATION;
import static io.leasehold.it.LeaseCluster.RENEW_EVERY;
import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.awaitOneHolder;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lease rules of docs/lease.md with packaged instances on one bucket of a real NATS server: exactly one holds the
 * controller lease; a SIGKILLed holder is replaced within duration + renew-every at a higher epoch; a
 * holder frozen (SIGSTOP) past the duration is replaced and, resumed, acts no more and exits 3.
 */
class LeaseHoldingIT {

    /**
     * What the failover bound may exceed duration + renew-every by, all of it measurement: the test
     * looks at most 50 ms apart (Await), each look is one /lease round trip to a JVM on a busy 2-core
     * machine, and the kill is timed from before the `kill` command is spawned.
     */
    static final Duration POLLING_SLACK = Duration.ofMillis(300);

    private LeaseCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Two instances of a fresh cluster, once one of them holds the lease. */
    private record Pair(ServiceProcess holder, ServiceProcess other) {
    }

    private Pair twoWithAHolder(String name, String work) {
        cluster = new LeaseCluster(name, NatsServer.start(), LeaseCluster.work(work));
        ServiceProcess a = cluster.start("a");
        ServiceProcess b = cluster.start("b");
        a.awaitReady(START);
        b.awaitReady(START);
        ServiceProcess holder = awaitOneHolder(List.of(a, b), Duration.ofSeconds(20));
        return new Pair(holder, holder == a ? b : a);
    }

    @Test
    void exactlyOneOfTwoThenOfThreeHoldsAndKeepsHolding() {
        cluster = new LeaseCluster("one-holder", NatsServer.start(), LeaseCluster.work(""));
        ServiceProcess a = cluster.start("a");
        ServiceProcess b = cluster.start("b");
        a.awaitReady(START);
        b.awaitReady(START);
        ServiceProcess holder = awaitOneHolder(List.of(a, b), Duration.ofSeconds(20));
        long epoch = lease(holder).epoch();

        ServiceProcess c = cluster.start("c").awaitReady(START);
        assertSame(holder, awaitOneHolder(List.of(a, b, c), Duration.ofSeconds(20)),
                "a third instance does not disturb the holder");
        // Over several renewals, every look shows the same single holder at the same epoch.
        long until = System.nanoTime() + DURATION.plus(RENEW_EVERY).toNanos();
        Await.until("four renewal periods with one holder", Duration.ofSeconds(30), () -> {
            List<Lease> seen = List.of(a, b, c).stream().map(LeaseCluster::lease).toList();
            long held = seen.stream().filter(l -> l.mode().equals("held")).count();
            assertEquals(1, held, "exactly one holds: " + seen);
            for (Lease l : seen) {
                assertTrue(l.heldBy(holder) && l.epoch() == epoch, "everyone names " + holder + " at epoch "
                        + epoch + ": " + seen);
            }
            return System.nanoTime() - until > 0;
        });
    }

    @Test
    void aKilledHolderIsReplacedWithinDurationPlusRenewEveryAtAHigherEpoch() {
        Pair pair = twoWithAHolder("killed-holder", "");
        ServiceProcess holder = pair.holder();
        ServiceProcess other = pair.other();
        long oldEpoch = lease(holder).epoch();

        Duration failover = LeaseFailover.afterKill(holder, List.of(other), Duration.ofSeconds(30)).after();
        Lease now = lease(other);
        Duration bound = DURATION.plus(RENEW_EVERY);
        System.out.printf("failover after SIGKILL: %d ms (bound %d ms + %d ms polling slack)%n",
                failover.toMillis(), bound.toMillis(), POLLING_SLACK.toMillis());
        assertTrue(failover.compareTo(bound.plus(POLLING_SLACK)) <= 0,
                "another holds within duration + renew-every: took " + failover);
        assertTrue(now.epoch() > oldEpoch, "the new epoch " + now.epoch() + " is above " + oldEpoch);
        assertTrue(LeaseCluster.linesWith(other, "took the controller lease over from") == 1,
                "the taker says whose lease it took over:\n" + other.logText());
    }

    @Test
    void aHolderStoppedWithSigtermReleasesTheLeaseSoAnotherTakesItAtOnce() {
        Pair pair = twoWithAHolder("released", "");
        ServiceProcess holder = pair.holder();
        ServiceProcess other = pair.other();
        long oldEpoch = lease(holder).epoch();

        long signalled = System.nanoTime();
        holder.terminate();
        assertEquals(0, holder.awaitExit(Duration.ofSeconds(30)), "a clean stop exits 0");
        Await.until("the other holds the lease", Duration.ofSeconds(10), () -> lease(other).mode().equals("held"));
        Duration took = Duration.ofNanos(System.nanoTime() - signalled);
        assertTrue(took.compareTo(DURATION) < 0, "released, so no full duration to wait: took " + took);
        assertTrue(lease(other).epoch() > oldEpoch);
        assertTrue(LeaseCluster.linesWith(holder, "released the controller lease (epoch " + oldEpoch + ")") == 1,
                holder.logText());
        assertTrue(LeaseCluster.linesWith(other, "took the controller lease over from") == 0,
                "a released lease is taken, not taken over:\n" + other.logText());
    }

    @Test
    void aFrozenHolderIsReplacedAndResumedActsNoMoreAndExits3() {
        Pair pair = twoWithAHolder("frozen-holder", "sleep 0.1");
        ServiceProcess frozen = pair.holder();
        ServiceProcess other = pair.other();
        long frozenEpoch = lease(frozen).epoch();

        frozen.freeze();
        Lease taken = Await.value(other.name() + " takes the lease over", Duration.ofSeconds(30),
                () -> lease(other), l -> l != null && l.mode().equals("held"));
        assertTrue(taken.epoch() > frozenEpoch, "higher epoch: " + taken.epoch() + " after " + frozenEpoch);
        // Work waits in pending/ for the frozen one too: resumed, it still believes it holds the lease.
        Set<String> ids = IntStream.range(0, 12).mapToObj(i -> "item-" + i).collect(Collectors.toCollection(TreeSet::new));
        long actsBefore = actsOn(frozen);
        ids.forEach(id -> cluster.spool.enqueue(id, "payload " + id));

        frozen.resume();
        assertEquals(3, frozen.awaitExit(Duration.ofSeconds(30)), "exit status 3, lease lost:\n" + frozen.logText());
        Await.until("every item done", Duration.ofSeconds(60), () -> cluster.spool.names("done").equals(ids));
        assertEquals(actsBefore, actsOn(frozen), "the resumed holder ran nothing: " + cluster.acts());
        assertTrue(cluster.acts().stream().filter(act -> ids.contains(act.id()))
                        .allMatch(act -> act.instance().equals(other.name()) && act.epoch() == taken.epoch()),
                "every item ran on " + other + " at epoch " + taken.epoch() + ": " + cluster.acts());
        assertEquals(1, LeaseCluster.linesWith(frozen, "the controller lease was lost (epoch " + frozenEpoch + ")"),
                "the loss is logged once with its epoch:\n" + frozen.logText());
    }

    private long actsOn(ServiceProcess p) {
        return cluster.acts().stream().filter(act -> act.instance().equals(p.name())).count();
    }
}
