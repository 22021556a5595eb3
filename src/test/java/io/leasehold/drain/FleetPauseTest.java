package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.handler.WorkItem;
import io.leasehold.spool.Pause;
import io.leasehold.testing.Await;
import io.leasehold.testing.Fifo;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drain's pause for the fleet (docs/operations.md, "Pausing the drain"): kept in the spool, obeyed by every
 * instance from its next poll tick; held work runs, renews and settles; no new attempt starts, neither of a
 * pending item nor a takeover; a resume claims again. Time is driven.
 */
class FleetPauseTest extends SpoolTestBase {

    @Test
    void aPauseByOneInstanceStopsEveryInstanceAtItsNextPollWhileHeldWorkRenewsAndSettles() throws Exception {
        Instance a = instance(T0);
        Instance b = instance(T0);
        enqueue("held");
        a.poll();
        a.handler.awaitStarted("held", 1);

        a.drainer.setPaused(true, "test on a");
        enqueue("x");
        enqueue("y");
        b.poll();
        a.poll();
        for (int step = 0; step < 10; step++) { // five minutes: the held claim is renewed, nothing new starts
            a.clock.advance(Duration.ofSeconds(30));
            b.clock.advance(Duration.ofSeconds(30));
        }
        assertEquals(1, claims().size(), "only the held claim: " + claims());
        assertEquals(1, claims().get(0).generation().attempt());
        assertTrue(a.clock.now().minusSeconds(40).isBefore(claims().get(0).reading()), "renewed while paused");

        a.handler.finish("held", Outcome.done());
        Await.until("held settles in done/ while paused", WAIT, () -> a.events.count("settled:held:done") == 1);
        a.poll();
        b.poll();
        assertEquals(List.of("held"), a.handler.started.stream().map(WorkItem::id).toList());
        assertTrue(b.handler.started.isEmpty(), "b started nothing while paused: " + b.handler.started);
        assertTrue(settledIn(SpoolFolder.PENDING, "x") && settledIn(SpoolFolder.PENDING, "y"), "both still pending");

        b.drainer.setPaused(false, "test on b"); // the resuming instance claims at once
        a.poll();
        Await.until("x and y start again", WAIT, () -> a.handler.started.size() + b.handler.started.size() == 3);
    }

    @Test
    void whilePausedAnAbandonedClaimIsNotTakenOverAndIsOnceResumed() throws Exception {
        Instance frozen = instance(T0);
        enqueue("a");
        frozen.poll();
        frozen.handler.awaitStarted("a", 1);
        frozen.drainer.setPaused(true, "test");

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER).plusSeconds(60));
        taker.poll();
        assertTrue(taker.handler.started.isEmpty(), "no takeover while paused");
        assertEquals(1, claims().get(0).generation().attempt());

        taker.drainer.setPaused(false, "test");
        taker.poll();
        taker.handler.awaitStarted("a", 2);
    }

    @Test
    void aDrainPassWhilePausedStartsNothingAndAnswersAtOnceSayingSo() throws Exception {
        Instance passes = instance(T0, 5, false);
        enqueue("a");
        passes.drainer.setPaused(true, "test");
        DrainReport report = passes.drainer.drainPass(Duration.ofMinutes(10)).await().atMost(WAIT);
        assertTrue(report.paused(), report.toString());
        assertEquals(0, report.claimed());
        assertFalse(report.idle(), "paused is not idle: work is waiting");
        assertTrue(passes.handler.started.isEmpty());
        assertTrue(settledIn(SpoolFolder.PENDING, "a"));
    }

    @Test
    void aPauseMadeWhileAnInstanceWasDownIsObeyedFromItsFirstScan() throws Exception {
        Instance before = instance(T0);
        before.drainer.setPaused(true, "test");
        enqueue("a");
        Instance started = instance(T0); // its start scans once, and reads the pause first
        assertTrue(started.drainer.pause().paused());
        assertTrue(started.handler.started.isEmpty(), "nothing claimed at start");
        assertTrue(settledIn(SpoolFolder.PENDING, "a"));
    }

    @Test
    void aSecondPauseChangesNothingItsTimeAndAuthorIncluded() throws Exception {
        Instance a = instance(T0);
        Pause first = a.drainer.setPaused(true, "first");
        a.clock.advance(Duration.ofSeconds(5));
        assertEquals(first, a.drainer.setPaused(true, "second"));
        Pause resumed = a.drainer.setPaused(false, "third");
        assertEquals(new Pause(false, T0.plusSeconds(5), "third"), resumed);
    }

    @Test
    void theLogLineOfAPauseIsTheOneTheOperationsDocQuotes() throws Exception {
        String line = DrainPause.describe(java.util.Optional.of(new Pause(true, java.time.Instant.parse("2026-12-07T17:05:03Z"),
                "api on web-1 pid 7")));
        assertTrue(Files.readString(java.nio.file.Path.of("docs/operations.md")).contains("\n" + line + "\n"), line);
    }

    @Test
    void aPauseThatCannotBeReadKeepsWhatWasKnownAndNoFileIsADrainNeverPaused() throws Exception {
        Instance a = instance(T0);
        Instance b = instance(T0);
        a.drainer.setPaused(true, "test");
        b.poll();
        assertTrue(b.drainer.pause().paused());
        Files.delete(layout.file(SpoolFolder.CONTROL, "drain~pause"));
        Fifo.make(layout.file(SpoolFolder.CONTROL, "drain~pause")); // never opened: it would block the poll
        enqueue("x");
        b.poll();
        assertTrue(b.drainer.pause().paused(), "an unreadable pause keeps the pause known");
        assertTrue(b.handler.started.isEmpty());

        Files.delete(layout.file(SpoolFolder.CONTROL, "drain~pause"));
        b.poll();
        assertFalse(b.drainer.pause().paused());
        b.handler.awaitStarted("x", 1);
    }
}
