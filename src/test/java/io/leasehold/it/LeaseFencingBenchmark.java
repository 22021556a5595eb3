package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.it.FencedFailover.Figures;
import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.Await;
import io.leasehold.testing.Fencing;
import io.leasehold.testing.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
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
 *
 * <p>{@link #fencingUnderAPartitionWithAttemptsOfTenSeconds} measures issue 24's scenarios: JetStream spool,
 * lease 8s / 1s / 5s, every instance reaching NATS through its own proxy, attempts that act for 10 s; the
 * holder's link blackholed with four attempts running (leader mode), and the holder's and one borrower's
 * links blackholed together in claims mode (three instances, two attempts each). A fresh rig per round.
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

    private static final int PARTITION_ROUNDS = 5;
    private static final FencingRig.Timing ISSUE_24 = new FencingRig.Timing(Duration.ofSeconds(8), Duration.ofSeconds(1),
            Duration.ofSeconds(5));

    @Test
    void fencingUnderAPartitionWithAttemptsOfTenSeconds() {
        List<String> lines = new ArrayList<>();
        lines.add(partition("holder blackholed, leader mode, 4 attempts", "leader", 2, 4));
        lines.add(partition("holder and a borrower blackholed, claims mode, 2 attempts each", "claims", 3, 2));
        System.out.printf("%nlease fencing under a partition, %d rounds each (JetStream spool, %s, attempts 10 s):%n",
                PARTITION_ROUNDS, ISSUE_24);
        lines.forEach(System.out::println);
    }

    private String partition(String fault, String mode, int instances, int concurrency) {
        List<Figures> rounds = new ArrayList<>();
        for (int round = 1; round <= PARTITION_ROUNDS; round++) {
            FencingRig rig = rigs.start("fencing-partition-" + mode + "-" + round, ISSUE_24, FencingRig.acting(10));
            Map<String, String> config = Map.of("leasehold.spool.kind", "jetstream", "leasehold.spool.jetstream.bucket",
                    "partition", "leasehold.drain.mode", mode, "leasehold.drain.concurrency", Integer.toString(concurrency));
            List<ServiceProcess> all = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                all.add(rig.serve(String.valueOf((char) ('a' + i)), config));
            }
            all.forEach(p -> p.awaitReady(LeaseCluster.START));
            ServiceProcess holder = LeaseCluster.awaitOneHolder(all, FencingRig.WITHIN);
            long epoch = LeaseCluster.lease(holder).epoch();
            List<ServiceProcess> others = all.stream().filter(p -> p != holder).toList();
            List<ServiceProcess> acting = mode.equals("leader") ? List.of(holder) : all;
            for (ServiceProcess b : mode.equals("leader") ? List.<ServiceProcess>of() : others) {
                Await.until(b.name() + " acts beside the holder", FencingRig.WITHIN,
                        () -> LeaseCluster.lease(b).reason().contains("acts beside the holder under its epoch " + epoch));
            }
            for (int i = 1; i <= acting.size() * concurrency + 2; i++) {
                assertEquals(201, holder.enqueue("long-" + i, "x").statusCode(), "enqueue long-" + i);
            }
            for (ServiceProcess p : acting) {
                awaitAttempts(rig, p, epoch, concurrency);
            }
            ServiceProcess taker = others.get(others.size() - 1);
            FencingRig.awaitRenewal(holder);
            long faultAt = ActLog.nowMillis();
            rig.proxyOf(holder).blackhole();
            if (mode.equals("claims")) {
                rig.proxyOf(others.get(0)).blackhole(); // a borrower cut off with the holder
            }
            Lease taken = rig.awaitTaken(taker, epoch);
            long takenAt = ActLog.nowMillis();
            Act first = rig.awaitActUnder(taker + " acts under epoch " + taken.epoch(), e -> e == taken.epoch());
            rig.awaitQuiet(epoch);
            Fencing all2 = rig.acts.fencing();
            Fencing real = Fencing.of(rig.acts.read().stream().filter(a -> !a.who().startsWith(ActLog.TAKE)).toList());
            Figures f = new Figures(holder, taker, epoch, taken.epoch(), takenAt - faultAt, first.atMillis() - faultAt,
                    all2.after(epoch).orElseThrow().marginMillis(), real.after(epoch).orElseThrow().marginMillis(), all2);
            System.out.printf("%s round %d: %s%n", fault, round, f);
            rounds.add(f);
            rig.close();
        }
        long overlaps = rounds.stream().filter(f -> f.marginToTake() <= 0).count();
        return String.format(Locale.ROOT, "  %s: margin to the take %s, to the first act %s; failover to the take %s,"
                + " to the first act %s; %d of %d rounds not fenced", fault, spread(rounds, Figures::marginToTake),
                spread(rounds, Figures::marginToFirstAct), spread(rounds, Figures::takenAfter),
                spread(rounds, Figures::firstActAfter), overlaps, rounds.size());
    }

    /** Waits until {@code n} attempts of {@code p} (each its own process) act under {@code epoch}. */
    private static void awaitAttempts(FencingRig rig, ServiceProcess p, long epoch, int n) {
        Await.until(n + " attempts of " + p.name() + " act under epoch " + epoch, FencingRig.WITHIN, () -> {
            Set<String> attempts = rig.acts.read().stream().filter(a -> a.epoch() == epoch)
                    .map(Act::who).filter(w -> w.startsWith(p.name() + "/")).collect(Collectors.toSet());
            return attempts.size() >= n;
        });
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
