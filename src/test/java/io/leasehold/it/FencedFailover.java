package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.lease;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.Fencing;
import io.leasehold.testing.ServiceProcess;
import java.util.List;
import java.util.function.Consumer;

/**
 * One failover between two acting services of a {@link FencingRig}, as the cut-off scenario and the
 * fencing benchmark run it: the holder acts, a fault is applied to it right after one of its renewals,
 * the other takes the lease (its take marked in the act log) and acts, and the old epoch falls quiet.
 * It answers the figures; judging them is the caller's.
 */
final class FencedFailover {

    /**
     * What one failover showed, times in ms from the fault: when the take was seen, the next epoch's first
     * act; the margins from the old epoch's last act to the take and to that first act (negative: overlap).
     */
    record Figures(ServiceProcess holder, ServiceProcess taker, long fromEpoch, long toEpoch, long takenAfter,
            long firstActAfter, long marginToTake, long marginToFirstAct, Fencing fencing) {

        @Override
        public String toString() {
            return String.format("epoch %d -> %d, taken %d ms after the fault, first act %d ms after it; margin %d ms "
                    + "to the take, %d ms to the first act", fromEpoch, toEpoch, takenAfter, firstActAfter,
                    marginToTake, marginToFirstAct);
        }
    }

    private FencedFailover() {
    }

    /** {@code live}: the holder and one candidate, both ready; {@code fault} is applied to the holder. */
    static Figures once(FencingRig rig, List<ServiceProcess> live, Consumer<ServiceProcess> fault) {
        ServiceProcess holder = LeaseCluster.awaitOneHolder(live, WITHIN);
        ServiceProcess other = live.stream().filter(p -> p != holder).findFirst().orElseThrow();
        long epoch = lease(holder).epoch();
        rig.keepPending(2);
        rig.awaitActUnder(holder + " acts under epoch " + epoch, e -> e == epoch);

        FencingRig.awaitRenewal(holder);
        long faultAt = ActLog.nowMillis();
        fault.accept(holder);
        Lease taken = rig.awaitTaken(other, epoch);
        long takenAt = ActLog.nowMillis();
        Act first = rig.awaitActUnder(other + " acts under epoch " + taken.epoch(), e -> e == taken.epoch());
        try {
            rig.awaitQuiet(epoch);
        } catch (AssertionError stillActing) {
            rig.acts.fencing().assertFenced("epoch " + epoch + " still acts");
            throw stillActing;
        }

        Fencing all = rig.acts.fencing();
        Fencing real = Fencing.of(rig.acts.read().stream().filter(a -> !a.who().startsWith(ActLog.TAKE)).toList());
        return new Figures(holder, other, epoch, taken.epoch(), takenAt - faultAt, first.atMillis() - faultAt,
                all.after(epoch).orElseThrow().marginMillis(), real.after(epoch).orElseThrow().marginMillis(), all);
    }
}
