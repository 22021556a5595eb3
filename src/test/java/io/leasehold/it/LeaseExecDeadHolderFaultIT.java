package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.ServiceProcess;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, scenario 5: the service holding the lease is SIGKILLed while it acts, and {@code lease exec}
 * is started right after, its CMD acting for twice the duration and then ending by itself. The dead
 * holder's epoch is never renewed again: the command must not run CMD under it (it would have to stop
 * it before anyone could take over, and answer 143 for a CMD that did nothing wrong), but wait until
 * it may take the lease, take a fresh epoch, and run CMD to its end — answering CMD's status, 0.
 * Each round a fresh service takes the lease the command gave back. LeaseCluster's timings.
 */
class LeaseExecDeadHolderFaultIT {

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();

    @Test
    void afterTheHolderIsKilledTheCommandTakesAFreshEpochAndRunsCmdToItsEnd() {
        FencingRig rig = rigs.start("exec-dead-holder", FencingRig.Timing.SHORT);
        int actsOfCmd = (int) (rig.timing.duration().multipliedBy(2).toMillis() / ActLog.EVERY.toMillis());
        long last = 0;
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            ServiceProcess holder = rig.serve("h" + round).awaitReady(START);
            long epoch = FencingRig.awaitHeld(holder, last).epoch();
            rig.keepPending(2);
            rig.awaitActUnder(holder + " acts under epoch " + epoch, e -> e == epoch);

            long killedAt = ActLog.nowMillis();
            holder.kill();
            String name = "after-r" + round;
            LeaseCommandProcess exec = rig.exec(name, null, rig.commandConfig(), Map.of(), "",
                    rig.acts.acts(FencingRig.who(name), actsOfCmd));
            int status = exec.awaitExit(WITHIN);

            String context = "round " + round + ", lease exec after the holder was SIGKILLed";
            rig.settledFencing(context, epoch);
            List<Act> cmd = rig.actsOf(name);
            System.out.printf("exec after a dead holder round %d: dead epoch %d, CMD acted under %s from %d ms after "
                    + "the kill, %d acts, exit %d; %s%n", round, epoch,
                    cmd.stream().map(Act::epoch).distinct().toList(),
                    cmd.isEmpty() ? -1 : cmd.get(0).atMillis() - killedAt, cmd.size(), status, rig.acts.fencing());
            assertTrue(cmd.stream().allMatch(a -> a.epoch() > epoch), context + ": CMD acts only under a fresh epoch, "
                    + "above the dead holder's " + epoch + ": " + cmd.stream().map(Act::epoch).distinct().toList()
                    + "\n" + exec.stderr());
            assertEquals(0, status, context + ": CMD ran to its end and the command answers its status:\n"
                    + exec.stderr());
            assertEquals(actsOfCmd, cmd.size(), context + ": every act of CMD");
            last = cmd.get(0).epoch();
        }
        rig.report("exec after a dead holder");
    }
}
