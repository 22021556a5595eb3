package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.Await;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, scenario 6: the NATS store is wiped (stopped, its data deleted, started empty) under a holder
 * that acts and two candidates — and, in the second test, a {@code lease exec} started as soon as NATS
 * is back, a third candidate. Whoever moves the revisions past the floor, every candidate must wait a
 * full duration after the reset before it takes: the next epoch is above every earlier one, takes
 * (acts or first seen held) come no sooner than a duration after NATS was started again, the old
 * holder's last act comes before the next epoch's first, and no look at the services finds two of them
 * saying "held". Timings: duration 4s, renew-deadline 3s, renew-every 2s; each service's ticks keep the
 * phase of its start, so candidates started one after another look at different moments.
 */
class LeaseWipeCandidatesFaultIT {

    static final FencingRig.Timing TIMING = new FencingRig.Timing(Duration.ofSeconds(4), Duration.ofSeconds(2),
            Duration.ofSeconds(3));

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();
    private FencingRig rig;

    @Test
    void aWipeUnderAHolderAndTwoCandidatesGivesOneNextHolderAfterAFullDuration() {
        rounds(false);
    }

    @Test
    void aWipeUnderAHolderTwoCandidatesAndALeaseExecGivesOneNextHolderAfterAFullDuration() {
        rounds(true);
    }

    private void rounds(boolean withExec) {
        rig = rigs.start(withExec ? "wipe-three" : "wipe-two", TIMING);
        // One after another: their ticks then fall at different moments (see above).
        List<ServiceProcess> live = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            live.add(rig.serve(name).awaitReady(START));
        }
        long highest = 0;
        int started = 0;
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            ServiceProcess holder = LeaseCluster.awaitOneHolder(live, WITHIN);
            long epoch = lease(holder).epoch();
            assertTrue(epoch >= highest, "the holder's epoch " + epoch + " is the highest so far (" + highest + ")");
            rig.keepPending(3);
            rig.awaitActUnder(holder + " acts under epoch " + epoch, e -> e == epoch);

            rig.cluster.nats.wipeStore();
            long restartedAt = ActLog.nowMillis();
            rig.cluster.nats.restart();
            String name = "wipe-r" + round;
            LeaseCommandProcess exec = !withExec ? null : rig.exec(name, null, rig.commandConfig(), Map.of(), "",
                    rig.acts.acts(FencingRig.who(name), 40));

            String context = "round " + round + ", store wiped" + (withExec ? ", lease exec candidate" : "");
            List<String> twoHeld = new ArrayList<>();
            Set<Long> marked = new HashSet<>();
            Await.until(context + ": an act under an epoch above " + epoch, WITHIN, () -> {
                List<Lease> seen = live.stream().map(LeaseCluster::lease).toList();
                List<Lease> held = seen.stream().filter(l -> l != null && l.mode().equals("held")).toList();
                if (held.size() > 1) {
                    twoHeld.add(held.toString());
                }
                for (int i = 0; i < live.size(); i++) {
                    Lease l = seen.get(i);
                    if (l != null && l.mode().equals("held") && l.epoch() > epoch && marked.add(l.epoch())) {
                        rig.acts.markTake(l.epoch(), ActLog.nowMillis(), live.get(i).name());
                    }
                }
                return rig.acts.read().stream().anyMatch(a -> a.epoch() > epoch && !a.who().startsWith(ActLog.TAKE));
            });
            assertEquals(3, holder.awaitExit(WITHIN), context + ": the holder loses the lease:\n" + holder.logText());
            if (exec != null) {
                assertEquals(0, exec.awaitExit(WITHIN), context + ": " + exec.stderr());
            }

            long margin = rig.settledFencing(context, epoch).after(epoch).orElseThrow().marginMillis();
            Act next = rig.acts.read().stream().filter(a -> a.epoch() > epoch)
                    .min(java.util.Comparator.comparingLong(Act::atMillis)).orElseThrow();
            System.out.printf("wipe round %d%s: epoch %d -> %d (%s) %d ms after NATS was started again; margin %d ms; "
                    + "looks with two holding: %d%n", round, withExec ? " (with lease exec)" : "", epoch, next.epoch(),
                    next.who(), next.atMillis() - restartedAt, margin, twoHeld.size());
            assertTrue(twoHeld.isEmpty(), context + ": two services said held at once: " + twoHeld);
            assertTrue(next.atMillis() - restartedAt >= rig.timing.duration().toMillis(), context + ": epoch "
                    + next.epoch() + " (" + next.who() + ") acted " + (next.atMillis() - restartedAt) + " ms after the "
                    + "reset store came back, before a full duration");
            highest = rig.acts.read().stream().mapToLong(Act::epoch).max().orElseThrow();

            live.remove(holder);
            live.add(rig.serve("r" + (++started)).awaitReady(START));
        }
        rig.report("wipe with " + (withExec ? "three candidates (one lease exec)" : "two candidates"));
    }
}
