package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.it.FencingRig.Timing;
import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, scenario 2: the holder's connection to NATS is taken away by a {@link TcpProxy} right after
 * one of its renewals, while a candidate still reaches NATS: blackholed (nothing passes, nothing
 * closes: its next renewal waits out its bound) or reset (its next renewal fails fast, before the
 * deadline). The holder must stop acting and have its exec child KILLed before the candidate's first
 * act, and exit 3. The timings (duration 7s, renew-deadline 6s, renew-every 5s) scaled down:
 * a renewal falls due half a second before the deadline, and the next one only past the duration.
 */
class LeaseCutOffHolderFaultIT {

    static final Timing TIMING = new Timing(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(2500));

    private FencingRig rig;

    @AfterEach
    void close() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void aBlackholedHolderStopsActingBeforeTheNextHolderActs() {
        rounds("blackholed", TcpProxy::blackhole);
    }

    @Test
    void aHolderWhoseConnectionIsResetStopsActingBeforeTheNextHolderActs() {
        rounds("reset", TcpProxy::cut);
    }

    private void rounds(String how, Consumer<TcpProxy> fault) {
        rig = new FencingRig("cut-off-" + how, TIMING);
        List<ServiceProcess> live = new ArrayList<>(List.of(rig.serve("a"), rig.serve("b")));
        live.forEach(p -> p.awaitReady(START));
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            ServiceProcess holder = LeaseCluster.awaitOneHolder(live, WITHIN);
            ServiceProcess other = live.stream().filter(p -> p != holder).findFirst().orElseThrow();
            long epoch = lease(holder).epoch();
            rig.keepPending(2);
            rig.awaitActUnder(holder + " acts under epoch " + epoch, e -> e == epoch);

            FencingRig.awaitRenewal(holder);
            long faultAt = ActLog.nowMillis();
            fault.accept(rig.proxyOf(holder));
            Lease taken = rig.awaitTaken(other, epoch);
            long takenAt = ActLog.nowMillis();
            Act first = rig.awaitActUnder(other + " acts under epoch " + taken.epoch(), e -> e == taken.epoch());

            String context = "round " + round + ", holder " + how;
            long margin = rig.settledFencing(context, epoch).after(epoch).orElseThrow().marginMillis();
            System.out.printf("cut-off (%s) round %d: epoch %d -> %d, taken %d ms after the fault, first act %d ms "
                    + "after it, margin %d ms%n", how, round, epoch, taken.epoch(), takenAt - faultAt,
                    first.atMillis() - faultAt, margin);
            assertEquals(3, holder.awaitExit(WITHIN), context + ": a holder that lost its lease exits 3:\n"
                    + holder.logText());

            live.remove(holder);
            live.add(rig.serve("r" + round).awaitReady(START));
        }
        rig.report("cut-off holder (" + how + ")");
    }
}
