package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.it.FencingRig.Timing;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, scenario 2: the holder's connection to NATS is taken away by a {@link TcpProxy} right after
 * one of its renewals, while a candidate still reaches NATS: blackholed (nothing passes, nothing
 * closes: its next renewal waits out its bound) or reset (its next renewal fails fast, before the
 * deadline). The holder must stop acting and have its exec child KILLed before the candidate's first
 * act, and exit 3. The timings (duration 7s, renew-deadline 6s, renew-every 5s) scaled down:
 * a renewal falls due half a second before the deadline, and the next one only past the duration.
 */
class LeaseCutOffHolderFaultIT {

    static final Timing TIMING = new Timing(Duration.ofMillis(3500), Duration.ofSeconds(2), Duration.ofMillis(2500));

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();
    private FencingRig rig;

    @Test
    void aBlackholedHolderStopsActingBeforeTheNextHolderActs() {
        rounds("blackholed", TcpProxy::blackhole);
    }

    @Test
    void aHolderWhoseConnectionIsResetStopsActingBeforeTheNextHolderActs() {
        rounds("reset", TcpProxy::cut);
    }

    private void rounds(String how, Consumer<TcpProxy> fault) {
        rig = rigs.start("cut-off-" + how, TIMING);
        List<ServiceProcess> live = new ArrayList<>(List.of(rig.serve("a"), rig.serve("b")));
        live.forEach(p -> p.awaitReady(START));
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            FencedFailover.Figures f = FencedFailover.once(rig, live, holder -> fault.accept(rig.proxyOf(holder)));
            String context = "round " + round + ", holder " + how;
            System.out.printf("cut-off (%s) round %d: %s%n", how, round, f);
            f.fencing().assertFenced(context);
            assertEquals(3, f.holder().awaitExit(WITHIN), context + ": a holder that lost its lease exits 3:\n"
                    + f.holder().logText());

            live.remove(f.holder());
            live.add(rig.serve("r" + round).awaitReady(START));
        }
        rig.report("cut-off holder (" + how + ")");
    }
}
