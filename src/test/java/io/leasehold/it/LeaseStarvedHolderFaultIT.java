package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.Await;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.Fencing;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, scenario 1: 250 uploads that stall mid-body, as many of them streaming as the service
 * allows, are sent to the holder while its exec handler acts, and held for longer than a holder that cannot renew may keep
 * acting. Either the holder keeps renewing through the stall (nobody else takes the lease), or it
 * stops acting — its child KILLed — before the candidate takes over; and a holder that lost the lease
 * exits 3. LeaseCluster's timings: duration 3s, renew-deadline 2s, renew-every 1s.
 */
class LeaseStarvedHolderFaultIT {

    private static final int STALLED = 250;
    /**
     * As many uploads as the start-up check lets stream at once on a pool of 100 workers (100 − 1 for the
     * drain − 8 spare): the most worker threads stalled uploads can take; the rest are answered 503.
     */
    private static final Map<String, String> MOST_UPLOADS = Map.of("quarkus.thread-pool.max-threads", "100",
            "leasehold.item.max-uploads", "91");

    private final List<Socket> stalled = new ArrayList<>();
    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();

    @AfterEach
    void closeUploads() {
        RawClients.closeAll(stalled);
    }

    @Test
    void aHolderStarvedByStalledUploadsStopsActingBeforeTheNextHolderActs() throws IOException {
        FencingRig rig = rigs.start("starved", FencingRig.Timing.SHORT);
        List<ServiceProcess> live = new ArrayList<>(List.of(rig.serve("a", MOST_UPLOADS),
                rig.serve("b", MOST_UPLOADS)));
        live.forEach(p -> p.awaitReady(START));
        // Past this, a holder that cannot renew has lost (renew-deadline) and been replaced (duration + a tick).
        long stallFor = rig.timing.duration().plus(rig.timing.renewDeadline()).plusSeconds(2).toMillis();
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            ServiceProcess holder = LeaseCluster.awaitOneHolder(live, WITHIN);
            ServiceProcess other = live.stream().filter(p -> p != holder).findFirst().orElseThrow();
            long epoch = lease(holder).epoch();
            rig.keepPending(2);
            rig.awaitActUnder(holder + " acts under epoch " + epoch, e -> e == epoch);

            long stallAt = ActLog.nowMillis();
            stalled.addAll(RawClients.stall(holder.port(), STALLED, "stalled-r" + round + "-"));
            Lease[] taken = new Lease[1];
            Await.until("the stall lasts " + stallFor + " ms", WITHIN, () -> {
                if (taken[0] == null) {
                    Lease seen = lease(other);
                    if (seen != null && seen.mode().equals("held") && seen.epoch() > epoch) {
                        taken[0] = seen;
                        rig.acts.markTake(seen.epoch(), ActLog.nowMillis(), other.name());
                    }
                }
                return ActLog.nowMillis() - stallAt >= stallFor;
            });
            String context = "round " + round + ", holder starved";
            assertTrue(rig.acts.of(epoch).stream().anyMatch(a -> a.atMillis() > stallAt),
                    context + ": the holder's child was acting when the stall began (else nothing is shown)");
            // Answered by now (503 beyond max-uploads); the rest were still streaming, each holding a worker.
            long answered = 0;
            for (Socket s : stalled) {
                answered += s.getInputStream().available() > 0 ? 1 : 0;
            }
            System.out.printf("starved round %d: %d of %d stalled uploads answered during the stall%n", round,
                    answered, STALLED);
            RawClients.closeAll(stalled);
            stalled.clear();

            if (taken[0] == null) {
                Fencing f = rig.acts.fencing().assertFenced(context);
                System.out.printf("starved round %d: %s kept epoch %d through the stall; %s%n", round, holder.name(),
                        epoch, f);
                continue;
            }
            long margin = rig.settledFencing(context, epoch).after(epoch).orElseThrow().marginMillis();
            System.out.printf("starved round %d: epoch %d -> %d, margin %d ms%n", round, epoch, taken[0].epoch(),
                    margin);
            assertEquals(3, holder.awaitExit(WITHIN), context + ": a holder that lost its lease exits 3:\n"
                    + holder.logText());
            live.remove(holder);
            live.add(rig.serve("r" + round, MOST_UPLOADS).awaitReady(START));
        }
        rig.report("starved holder");
    }
}
