package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static io.leasehold.it.LeaseCluster.lease;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.Await;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.ServiceProcess;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, scenario 4: {@code lease exec} borrows the epoch of a serving holder, its CMD acting in a
 * loop and shrugging TERM off; a service waits as candidate. The holder then stops renewing — SIGKILLed
 * in odd rounds (its watchdog kills its child), frozen with its child in even rounds (SIGSTOP, as a paused
 * machine). The borrower must have CMD stopped, KILL included, before the candidate takes over: the
 * borrowed epoch's last act comes before the next epoch's take. LeaseCluster's timings.
 */
class LeaseExecBorrowFaultIT {

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();

    @Test
    void aBorrowedEpochStopsActingBeforeTheNextHolderTakesOver() {
        FencingRig rig = rigs.start("exec-borrow", FencingRig.Timing.SHORT);
        ServiceProcess holder = rig.serve("h").awaitReady(START);
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            long epoch = FencingRig.awaitHeld(holder, 0).epoch();
            rig.keepPending(2);
            rig.awaitActUnder(holder + " acts under epoch " + epoch, e -> e == epoch);
            ServiceProcess candidate = rig.serve("c" + round).awaitReady(START);
            Await.value(candidate.name() + " waits on epoch " + epoch, WITHIN, () -> lease(candidate),
                    l -> l != null && l.mode().equals("waiting") && l.epoch() == epoch);
            String name = "borrow-r" + round;
            LeaseCommandProcess borrower = rig.exec(name, null, rig.commandConfig(), Map.of(), ActLog.IGNORE_TERM,
                    rig.acts.loop(FencingRig.who(name)));
            long borrowed = rig.awaitAct(name + " acts", a -> a.who().startsWith(name + "/")).epoch();
            assertTrue(borrowed == epoch, () -> name + " borrows the holder's epoch " + epoch + ", not " + borrowed
                    + "; what the rig's processes said:" + rig.story());

            boolean kill = round % 2 == 1;
            long faultAt = ActLog.nowMillis();
            if (kill) {
                holder.kill();
            } else {
                rig.freezeWithChildren(holder);
            }
            Lease taken = rig.awaitTaken(candidate, epoch);
            long takenAt = ActLog.nowMillis();
            int status = borrower.awaitExit(WITHIN);
            long lastBorrowed = rig.actsOf(name).stream().mapToLong(ActLog.Act::atMillis).max().orElseThrow();

            String context = "round " + round + ", holder " + (kill ? "SIGKILLed" : "frozen");
            long margin = rig.settledFencing(context, epoch).after(epoch).orElseThrow().marginMillis();
            System.out.printf("exec borrow round %d (%s): epoch %d -> %d taken %d ms after the fault; the borrower's "
                    + "last act %d ms after the fault, exit %d; margin %d ms%n", round, kill ? "SIGKILL" : "SIGSTOP",
                    epoch, taken.epoch(), takenAt - faultAt, lastBorrowed - faultAt, status, margin);
            holder.close(); // a frozen holder is killed too, and its watchdog kills its child
            holder = candidate;
        }
        rig.report("exec borrowing an epoch");
    }
}
