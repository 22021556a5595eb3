package io.leasehold.it;

import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.awaitOneHolder;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Act;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every attempt carries the holder's epoch ($LEASEHOLD_EPOCH): in leader mode only the holder drains;
 * in claims mode every instance drains, a waiting one under the holder's epoch.
 */
class LeaseDrainModeIT {

    private LeaseCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private List<Act> drain(String mode, int items, String work) {
        cluster = new LeaseCluster("mode-" + mode, NatsServer.start(), LeaseCluster.work(work));
        ServiceProcess a = cluster.start("a", Map.of("leasehold.drain.mode", mode));
        ServiceProcess b = cluster.start("b", Map.of("leasehold.drain.mode", mode));
        a.awaitReady(START);
        b.awaitReady(START);
        ServiceProcess holder = awaitOneHolder(List.of(a, b), Duration.ofSeconds(20));
        if (mode.equals("claims")) { // the waiting one acts once it has seen the holder renew
            ServiceProcess waiting = holder == a ? b : a;
            Await.until(waiting.name() + " acts beside the holder", Duration.ofSeconds(20),
                    () -> lease(waiting).reason().contains("acts beside the holder under its epoch"));
        }
        Set<String> ids = IntStream.range(0, items).mapToObj(i -> "item-" + i)
                .collect(Collectors.toCollection(TreeSet::new));
        ids.forEach(id -> cluster.spool.enqueue(id, "payload " + id));
        Await.until("every item done", Duration.ofSeconds(60), () -> cluster.spool.names("done").equals(ids));
        List<Act> acts = cluster.acts();
        assertEquals(ids, acts.stream().map(Act::id).collect(Collectors.toCollection(TreeSet::new)), "acts: " + acts);
        return acts;
    }

    @Test
    void inLeaderModeOnlyTheHolderDrainsUnderItsEpoch() {
        List<Act> acts = drain("leader", 12, "sleep 0.1");
        ServiceProcess holder = holder();
        long epoch = lease(holder).epoch();
        assertTrue(acts.stream().allMatch(act -> act.instance().equals(holder.name()) && act.epoch() == epoch),
                "every item ran on " + holder.name() + " under epoch " + epoch + ": " + acts);
    }

    @Test
    void inClaimsModeAWaitingInstanceActsUnderTheHoldersEpochOnceItSeesItRenew() {
        // Long enough work that both instances' four slots fill: the waiting one surely runs some.
        List<Act> acts = drain("claims", 16, "sleep 0.5");
        ServiceProcess holder = holder();
        long epoch = lease(holder).epoch();
        assertTrue(acts.stream().allMatch(act -> act.epoch() == epoch), "every act under epoch " + epoch + ": " + acts);
        assertTrue(acts.stream().anyMatch(act -> !act.instance().equals(holder.name())),
                "the waiting instance ran some too: " + acts);
    }

    private ServiceProcess holder() {
        return cluster.instances().stream().filter(p -> "held".equals(lease(p).mode())).findFirst().orElseThrow();
    }
}
