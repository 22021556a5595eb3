package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.FencingRig.Timing;
import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.Await;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 24: the fence holds when the network is cut. Packaged services on the JetStream spool, each
 * reaching NATS (lease and items alike) through a {@link io.leasehold.testing.TcpProxy} of its own that is
 * blackholed: nothing passes, nothing closes, as with a pulled cable. Every attempt acts in a loop until
 * it is stopped (longer than any deadline), each act logged with its epoch and time; the act log must show
 * no act under an epoch after the first act (or the take) of a later one.
 */
class LeasePartitionFaultIT {

    /** A 1.5 s gap from the deadline to the take; each hand-back over the dead link waits out 2 s. */
    static final Timing TIMING = new Timing(Duration.ofMillis(4000), Duration.ofMillis(1000), Duration.ofMillis(2500));

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();

    private static Map<String, String> jetStream(String mode, int concurrency) {
        return Map.of("leasehold.spool.kind", "jetstream", "leasehold.spool.jetstream.bucket", "partition",
                "leasehold.drain.mode", mode, "leasehold.drain.concurrency", Integer.toString(concurrency));
    }

    private static Map<String, String> spool(String kind, String mode, int concurrency) {
        return kind.equals("jetstream") ? jetStream(mode, concurrency)
                : Map.of("leasehold.drain.mode", mode, "leasehold.drain.concurrency", Integer.toString(concurrency));
    }

    /**
     * Before the fix the holder cancelled one attempt, then waited out that claim's hand-back on the dead
     * link before it cancelled the next: its last attempts ran on past the successor's take.
     */
    @Test
    void aBlackholedHolderStopsAllItsAttemptsBeforeTheNextHolderActs() {
        FencingRig rig = rigs.start("partition-holder", TIMING);
        List<ServiceProcess> both = List.of(rig.serve("a", jetStream("leader", 4)), rig.serve("b", jetStream("leader", 4)));
        both.forEach(p -> p.awaitReady(START));
        ServiceProcess holder = LeaseCluster.awaitOneHolder(both, WITHIN);
        ServiceProcess other = both.stream().filter(p -> p != holder).findFirst().orElseThrow();
        long epoch = LeaseCluster.lease(holder).epoch();
        enqueue(holder, "long", 6); // four run on the holder, two wait for whoever holds next
        awaitAttempts(rig, holder, epoch, 4);

        FencingRig.awaitRenewal(holder);
        rig.proxyOf(holder).blackhole();
        Lease taken = rig.awaitTaken(other, epoch);
        rig.awaitActUnder(other + " acts under epoch " + taken.epoch(), e -> e == taken.epoch());
        rig.settledFencing("the holder blackholed with four attempts running", epoch);
        assertEquals(3, holder.awaitExit(WITHIN), "a holder that lost its lease exits 3:\n" + holder.logText());
        rig.report("holder blackholed, four attempts");
    }

    /**
     * Claims mode, three instances: the holder and one borrower are blackholed together, the other
     * borrower takes over. Before the fix a borrower acted under the holder's epoch as long as it read the
     * entry at all, however long unchanged, and nothing stopped what ran under it: the cut-off borrower's
     * attempts ran on for ever, and the taker's own until long after its first act under the new epoch.
     */
    @ParameterizedTest(name = "{0} spool")
    @ValueSource(strings = {"jetstream", "directory"})
    void aBlackholedHolderAndBorrowerStopActingUnderItsEpochBeforeTheNextHolderActs(String kind) {
        FencingRig rig = rigs.start("partition-borrower-" + kind, TIMING);
        List<ServiceProcess> all = List.of(rig.serve("a", spool(kind, "claims", 2)), rig.serve("b", spool(kind, "claims", 2)),
                rig.serve("c", spool(kind, "claims", 2)));
        all.forEach(p -> p.awaitReady(START));
        ServiceProcess holder = LeaseCluster.awaitOneHolder(all, WITHIN);
        List<ServiceProcess> borrowers = all.stream().filter(p -> p != holder).toList();
        long epoch = LeaseCluster.lease(holder).epoch();
        for (ServiceProcess b : borrowers) { // each acts once it has seen the holder renew
            Await.until(b.name() + " acts beside the holder", WITHIN,
                    () -> LeaseCluster.lease(b).reason().contains("acts beside the holder under its epoch " + epoch));
        }
        if (kind.equals("jetstream")) {
            enqueue(holder, "long", 6);
        } else {
            rig.keepPending(6);
        }
        for (ServiceProcess p : all) {
            awaitAttempts(rig, p, epoch, 2);
        }

        ServiceProcess cutBorrower = borrowers.get(0);
        ServiceProcess taker = borrowers.get(1);
        FencingRig.awaitRenewal(holder);
        rig.proxyOf(holder).blackhole();
        rig.proxyOf(cutBorrower).blackhole();
        Lease taken = rig.awaitTaken(taker, epoch);
        String context = "the holder and a borrower blackholed, two attempts each (" + kind + " spool)";
        try {
            rig.awaitActUnder(taker + " acts under epoch " + taken.epoch(), e -> e == taken.epoch());
        } catch (AssertionError never) { // attempts under the old epoch that never stop also keep the taker's slots
            rig.acts.fencing().assertFenced(context);
            throw never;
        }
        rig.settledFencing("the holder and a borrower blackholed, two attempts each (" + kind + " spool)", epoch);
        assertEquals(3, holder.awaitExit(WITHIN), "a holder that lost its lease exits 3:\n" + holder.logText());
        assertTrue(cutBorrower.logText().contains("no longer acting under the holder's epoch " + epoch),
                "the cut-off borrower said why it stopped:\n" + cutBorrower.logText());
        assertTrue(cutBorrower.isAlive(), "a borrower whose epoch lapsed goes on serving");
        rig.report("holder and borrower blackholed, attempts until stopped (" + kind + " spool)");
    }

    private static void enqueue(ServiceProcess on, String prefix, int n) {
        for (int i = 1; i <= n; i++) {
            assertEquals(201, on.enqueue(prefix + "-" + i, "x").statusCode(), "enqueue " + prefix + "-" + i);
        }
    }

    /** Waits until {@code n} attempts of {@code p} (each its own process) act under {@code epoch}. */
    private static void awaitAttempts(FencingRig rig, ServiceProcess p, long epoch, int n) {
        Await.until(n + " attempts of " + p.name() + " act under epoch " + epoch, WITHIN, () -> {
            Set<String> attempts = rig.acts.read().stream().filter(a -> a.epoch() == epoch)
                    .map(Act::who).filter(w -> w.startsWith(p.name() + "/")).collect(Collectors.toSet());
            return attempts.size() >= n;
        });
    }
}
