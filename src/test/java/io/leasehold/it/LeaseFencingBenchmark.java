package io.leasehold.it;

import io.leasehold.it.FencedFailover.Figures;
import io.leasehold.testing.ServiceProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Benchmark, not a test (run with -Pbenchmark): the fencing margin of the controller lease — the next
 * epoch's take and first act minus the previous epoch's last act, on the acts' clock (10 ms steps) —
 * and the failover time (fault to the take being seen, and to the first act), ten rounds per fault, two
 * acting services in leader mode: the holder SIGKILLed, its NATS connection blackholed, and reset. Each
 * fault comes right after a renewal of the holder ({@link FencedFailover}). Printed as min/p50/max; a
 * negative margin is an overlap (an act of the old epoch after the new one began), counted, not failed.
 * Timings: LeaseCluster's (duration 3s, renew-deadline 2s, renew-every 1s) for SIGKILL and blackhole,
 * {@link LeaseCutOffHolderFaultIT#TIMING} for the reset, whose renewals fail fast before the deadline.
 */
@Tag("benchmark")
class LeaseFencingBenchmark {

    private static final int ROUNDS = 10;

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();

    @Test
    void fencingMarginAndFailoverTime() {
        List<String> lines = new ArrayList<>();
        lines.add(measure("SIGKILL", FencingRig.Timing.SHORT, (r, holder) -> holder.kill()));
        lines.add(measure("blackhole", FencingRig.Timing.SHORT, (r, holder) -> r.proxyOf(holder).blackhole()));
        lines.add(measure("reset", LeaseCutOffHolderFaultIT.TIMING, (r, holder) -> r.proxyOf(holder).cut()));
        System.out.printf("%nlease fencing, %d rounds per fault (margins: next epoch minus the last act of the one "
                + "before; failover: from the fault):%n", ROUNDS);
        lines.forEach(System.out::println);
    }

    private String measure(String fault, FencingRig.Timing timing, BiConsumer<FencingRig, ServiceProcess> apply) {
        FencingRig rig = rigs.start("fencing-bench-" + fault, timing);
        List<ServiceProcess> live = new ArrayList<>(List.of(rig.serve("a"), rig.serve("b")));
        live.forEach(p -> p.awaitReady(LeaseCluster.START));
        List<Figures> rounds = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            Figures f = FencedFailover.once(rig, live, holder -> apply.accept(rig, holder));
            System.out.printf("%s round %d: %s%n", fault, round, f);
            rounds.add(f);
            f.holder().close();
            live.remove(f.holder());
            live.add(rig.serve("r" + round).awaitReady(LeaseCluster.START));
        }
        rig.close(); // the next fault's rig starts on a quiet machine (closing twice is harmless)
        long overlaps = rounds.stream().filter(f -> f.marginToTake() <= 0).count();
        return String.format(Locale.ROOT, "  %-9s (%s): margin to the take %s, to the first act %s; failover to the "
                + "take %s, to the first act %s; %d of %d rounds not fenced", fault, timing,
                spread(rounds, Figures::marginToTake), spread(rounds, Figures::marginToFirstAct),
                spread(rounds, Figures::takenAfter), spread(rounds, Figures::firstActAfter), overlaps, ROUNDS);
    }

    private static String spread(List<Figures> rounds, ToLongFunction<Figures> figure) {
        List<Long> sorted = rounds.stream().map(figure::applyAsLong).sorted().toList();
        int n = sorted.size();
        return String.format(Locale.ROOT, "min %d / p50 %d / max %d ms", sorted.get(0),
                (sorted.get((n - 1) / 2) + sorted.get(n / 2)) / 2, sorted.get(n - 1));
    }
}
