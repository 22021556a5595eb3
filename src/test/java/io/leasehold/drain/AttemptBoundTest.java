package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Outcome;
import io.leasehold.directory.PosixItemStore;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * max-attempts is a real bound: a hand-back keeps the attempt count, so restarts cannot give an item
 * fresh attempts, and an item never inherits the bookkeeping of an earlier item under its id.
 */
class AttemptBoundTest extends SpoolTestBase {

    private String reasonShown(Instance instance, String id) throws IOException {
        return new PosixItemStore(layout, instance.spool, Instance.TERMS, instance.clock).lookup(id).orElseThrow()
                .reason();
    }

    @Test
    void aHandBackKeepsTheAttemptCount() throws IOException {
        Instance first = instance(T0, 3, true);
        enqueue("a");
        first.poll();
        first.handler.awaitStarted("a", 1); // then it dies: nobody ticks it again

        Instant later = T0.plus(Instance.TAKEABLE_AFTER);
        Instance second = instance(later, 3, true);
        second.poll();
        second.handler.awaitStarted("a", 2);
        second.drainer.stop(); // a rolling restart hands it back
        assertTrue(Files.exists(layout.file(SpoolFolder.PENDING, "a")));

        Instance third = instance(later.plusSeconds(1), 3, true);
        third.poll();
        third.handler.awaitStarted("a", 2);
        assertEquals(List.of(2), third.handler.startedAttempts("a"), "the hand-back did not restart the count");
    }

    @Test
    void rollingRestartsCannotStretchMaxAttempts() throws IOException {
        enqueue("p");
        Instant now = T0;
        // Each instance is restarted (hand-back) or dies (abandons) mid-work, in turn; max-attempts is 2.
        for (int round = 0; round < 6; round++) {
            Instance instance = instance(now, 2, true);
            instance.poll();
            if (settledIn(SpoolFolder.FAILED, "p")) {
                assertTrue(instance.handler.started.isEmpty(), "nothing past the bound ran: " + instance.handler.started);
                break;
            }
            int attempt = Await.value("p runs", WAIT, () -> instance.handler.startedAttempts("p"), a -> !a.isEmpty())
                    .get(0);
            assertTrue(attempt <= 2, "attempt " + attempt + " is past max-attempts");
            if (round % 2 == 0) {
                instance.drainer.stop();
                now = now.plusSeconds(1);
            } else {
                now = now.plus(Instance.TAKEABLE_AFTER);
            }
        }
        assertTrue(settledIn(SpoolFolder.FAILED, "p"), "p failed once its attempts were spent");
        assertFalse(Files.exists(layout.file(SpoolFolder.PENDING, "p")));
        assertEquals(List.of(), claims());
    }

    @Test
    void anItemDoesNotInheritTheReasonOfAnEarlierItemUnderItsId() throws IOException {
        // Left by an earlier item "r" whose failed/ file was removed by hand; written by the old format.
        Files.writeString(layout.file(SpoolFolder.REASONS, "r"), "1-old 4\nan old failure");
        enqueue("r");
        Instance holder = instance(T0, 1, true);
        holder.poll();
        holder.handler.awaitStarted("r", 1); // and dies

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER), 1, true);
        taker.poll();
        Await.until("r fails", WAIT, () -> settledIn(SpoolFolder.FAILED, "r"));
        assertEquals("abandoned 1 times", reasonShown(taker, "r"));
    }

    @Test
    void aSecondFileUnderAnIdAlreadyDoneNeverRunsNorReplacesIt() throws IOException {
        Instance instance = instance(T0, 5, true);
        enqueue("once", "the first");
        instance.poll();
        instance.handler.awaitStarted("once", 1);
        instance.handler.finish("once", Outcome.done());
        Await.until("done", WAIT, () -> settledIn(SpoolFolder.DONE, "once") && instance.drainer.claimsHeld() == 0);

        enqueue("once", "a second file dropped in under the same id");
        instance.poll();
        instance.poll();
        // A poll's fill joins one already running on another worker (the slot the first item freed), so
        // the look at the second file may come just after the tick returns: wait for its report.
        Await.until("the second file reported", WAIT,
                () -> instance.anomalies.list().stream().anyMatch(a -> a.name().equals("once")));
        assertEquals(1, instance.handler.started.size(), "the second file never ran");
        assertEquals("the first", Files.readString(layout.file(SpoolFolder.DONE, "once")), "done/ is never replaced");
    }
}
