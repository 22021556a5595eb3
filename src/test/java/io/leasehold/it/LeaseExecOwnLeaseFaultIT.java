package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.Await;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.TcpProxy;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, scenario 3: {@code lease exec} takes the lease for its own run (nobody holds it), its CMD
 * acting in a loop, a service waiting as candidate; then the command's connection to NATS is taken
 * away ({@link TcpProxy}). CMD must be stopped — TERM, then KILL before the duration is out, whatever
 * CMD does with TERM — before the candidate takes over; the command answers CMD's status, and does not
 * linger once CMD has ended. LeaseCluster's timings (duration 3s, renew-deadline 2s, renew-every 1s):
 * the KILL must come within a second of the TERM.
 */
class LeaseExecOwnLeaseFaultIT {

    /** What a command may take to exit once CMD has: its own JVM's shutdown, well under the grace. */
    private static final Duration EXITS_WITHIN = Duration.ofSeconds(1);

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();
    private FencingRig rig;

    @Test
    void aCommandThatIgnoresTermIsKilledBeforeTheNextHolderActs() {
        rounds("ignores-term", ActLog.IGNORE_TERM, TcpProxy::blackhole, 128 + 9);
    }

    @Test
    void aCommandThatExitsOnTermEndsTheRunAtOnce() {
        rounds("exits-on-term", ActLog.EXIT_42_ON_TERM, TcpProxy::cut, 42);
    }

    private void rounds(String how, String term, Consumer<TcpProxy> fault, int status) {
        rig = rigs.start("exec-own-" + how, FencingRig.Timing.SHORT);
        ServiceProcess previous = null;
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            if (previous != null) {
                previous.terminate(); // gives the lease back: the next command finds nobody holding it
                assertEquals(0, previous.awaitExit(WITHIN), previous.logText());
            }
            String name = "own-r" + round;
            TcpProxy proxy = rig.proxy();
            Map<String, String> config = rig.commandConfig();
            config.put("leasehold.nats.url", proxy.natsUrl());
            LeaseCommandProcess exec = rig.exec(name, null, config, Map.of(), term,
                    rig.acts.loop(FencingRig.who(name)));
            long epoch = rig.awaitAct(name + " acts under the lease it took", a -> a.who().startsWith(name + "/"))
                    .epoch();

            ServiceProcess candidate = rig.serve("c" + round).awaitReady(START);
            Await.value(candidate.name() + " waits on the command's epoch " + epoch, WITHIN,
                    () -> LeaseCluster.lease(candidate),
                    l -> l != null && l.mode().equals("waiting") && l.epoch() == epoch);
            rig.keepPending(2);

            long faultAt = ActLog.nowMillis();
            fault.accept(proxy);
            Lease taken = rig.awaitTaken(candidate, epoch);
            long takenAt = ActLog.nowMillis();
            int exited = exec.awaitExit(WITHIN);
            long exitSeenAt = exec.exitedAtMillis(); // when it exited, not when the test got round to looking
            Act lastOfCmd = rig.actsOf(name).stream().max(Comparator.comparingLong(Act::atMillis)).orElseThrow();

            String context = "round " + round + ", CMD " + how;
            long margin = rig.settledFencing(context, epoch).after(epoch).orElseThrow().marginMillis();
            System.out.printf("exec own lease (%s) round %d: epoch %d -> %d taken %d ms after the fault; CMD's last "
                    + "act %d ms after the fault, the command exited %d ms after it (status %d); margin %d ms%n", how,
                    round, epoch, taken.epoch(), takenAt - faultAt, lastOfCmd.atMillis() - faultAt,
                    exitSeenAt - lastOfCmd.atMillis(), exited, margin);
            assertEquals(status, exited, context + ": the command answers CMD's status:\n" + exec.stderr());
            assertTrue(exitSeenAt - lastOfCmd.atMillis() <= EXITS_WITHIN.toMillis(), context + ": the command "
                    + "exited " + (exitSeenAt - lastOfCmd.atMillis()) + " ms after CMD's last act:\n" + exec.stderr());
            previous = candidate;
        }
        rig.report("exec with its own lease (" + how + ")");
    }
}
