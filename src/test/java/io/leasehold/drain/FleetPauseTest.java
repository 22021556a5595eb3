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

    /** A pass under way (no poll tick) reads the pause each poll interval: what runs ends, nothing more starts. */
    @Test
    void aPassUnderWayObeysAPauseMadeElsewhereAndAnswersOnceItsWorkIsOver() throws Exception {
        Instance passes = instance(T0, 5, false);
        Instance other = instance(T0);
        for (String id : List.of("p1", "p2", "p3", "p4")) {
            enqueue(id);
        }
        var pass = passes.drainer.drainPass(Duration.ofMinutes(10)).subscribeAsCompletionStage();
        Await.until("two at work", WAIT, () -> passes.handler.started.size() == 2);
        other.drainer.setPaused(true, "test on other");
        passes.clock.tick("leasehold-pause");
        List<String> first = passes.handler.started.stream().map(WorkItem::id).toList();
        first.forEach(id -> passes.handler.finish(id, Outcome.done()));
        DrainReport report = pass.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(report.paused() && !report.idle(), report.toString());
        assertEquals(2, report.done(), report.toString());
        assertEquals(first, passes.handler.started.stream().map(WorkItem::id).toList(), "nothing started after the pause");
    }

    @Test
    void aResumeOnTheInstanceAskedClaimsAtOnceWithoutAPoll() throws Exception {
        Instance a = instance(T0);
        a.drainer.setPaused(true, "test");
        enqueue("x");
        a.poll();
        assertTrue(a.handler.started.isEmpty());
        a.drainer.setPaused(false, "test");
        a.handler.awaitStarted("x", 1); // no poll tick given
    }

    @Test
    void anInstanceWhosePauseCannotBeReadAtStartClaimsNothingUntilItCan() throws Exception {
        java.nio.file.Path file = layout.file(SpoolFolder.CONTROL, "drain~pause");
        Fifo.make(file);
        enqueue("x");
        Instance started = instance(T0);
        assertTrue(started.drainer.pause().paused(), "not known: held as paused");
        assertTrue(started.drainer.pause().current().orElseThrow().by().startsWith("unknown: "),
                started.drainer.pause().current().toString());
        started.poll();
        assertTrue(started.handler.started.isEmpty(), "nothing claimed while the pause cannot be read");
        Files.delete(file);
        started.poll();
        started.handler.awaitStarted("x", 1);
    }

    @Test
    void aPauseOrResumeReplacesARecordThatCannotBeRead() throws Exception {
        Instance a = instance(T0);
        Files.writeString(layout.file(SpoolFolder.CONTROL, "drain~pause"), "not a pause\n");
        assertEquals(true, a.drainer.setPaused(true, "test").paused());
        assertTrue(new io.leasehold.directory.DirectoryDrainSwitch(layout).pause().orElseThrow().paused());
    }

    /** A poll's read that began before this instance paused must not undo the pause when it lands. */
    @Test
    void aReadInFlightDoesNotUndoAPauseMadeMeanwhile() throws Exception {
        var real = new io.leasehold.directory.DirectoryDrainSwitch(layout);
        var reading = new java.util.concurrent.CountDownLatch(1);
        var release = new java.util.concurrent.CountDownLatch(1);
        var slow = new io.leasehold.spool.DrainSwitch() {
            volatile boolean hold;

            @Override
            public java.util.Optional<Pause> pause() throws java.io.IOException {
                java.util.Optional<Pause> read = real.pause();
                if (hold) {
                    hold = false;
                    reading.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return read;
            }

            @Override
            public void setPause(Pause pause) throws java.io.IOException {
                real.setPause(pause);
            }
        };
        DrainPause pause = new DrainPause(slow, new io.leasehold.testing.DrivenClock());
        pause.refresh();
        slow.hold = true;
        Thread poll = new Thread(pause::refresh);
        poll.start();
        assertTrue(reading.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));
        pause.set(true, "test"); // its own read is not held
        release.countDown();
        poll.join(WAIT.toMillis());
        assertTrue(pause.paused(), "the old read landed after the pause and was not applied");
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
