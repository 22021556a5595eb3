package io.leasehold.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping CMD, on real processes, with the KILL deadline on a clock the test drives: TERM at once,
 * KILL when the deadline comes (never before), and when CMD exits on TERM the command is done at once,
 * with what CMD left in its group KILLed — no waiting for the deadline.
 */
class CommandProcessTest {

    static final Duration WITHIN = Duration.ofSeconds(20);

    @TempDir
    Path w;
    final DrivenClock clock = new DrivenClock();
    final ExecutorService signals = Executors.newCachedThreadPool();
    CommandProcess cmd;

    @AfterEach
    void cleanUp() {
        if (cmd != null) {
            cmd.signal("KILL"); // a failed test leaves nothing running
        }
        signals.shutdownNow();
    }

    CommandProcess start(String script) throws IOException {
        cmd = CommandProcess.start(List.of("sh", "-c", script), 7, clock, signals);
        Await.until("CMD is ready", WITHIN, () -> Files.exists(w.resolve("ready")));
        return cmd;
    }

    /** Says TERM when it gets one, and goes on. */
    String shrugsTermOff() {
        return "trap 'touch " + w + "/term' TERM; touch " + w + "/ready; while :; do sleep 0.05; done";
    }

    @Test
    void aCommandThatShrugsTermOffIsKilledWhenItsDeadlineComesAndNotBefore() throws IOException {
        start(shrugsTermOff());
        cmd.stop("test", clock.monotonicNanos() + Duration.ofSeconds(5).toNanos());
        Await.until("CMD got TERM", WITHIN, () -> Files.exists(w.resolve("term")));
        clock.advance(Duration.ofMillis(4999));
        assertTrue(ProcessHandle.of(cmd.pgid()).map(ProcessHandle::isAlive).orElse(false), "alive before its deadline");
        clock.advance(Duration.ofMillis(1));
        assertEquals(128 + 9, cmd.waitFor(), "KILLed at the deadline");
    }

    @Test
    void aLaterStopOnlyBringsTheKillForward() throws IOException {
        start(shrugsTermOff());
        cmd.stop("first", clock.monotonicNanos() + Duration.ofSeconds(3).toNanos());
        cmd.stop("later, with more time", clock.monotonicNanos() + Duration.ofSeconds(10).toNanos());
        cmd.stop("later, with less time", clock.monotonicNanos() + Duration.ofSeconds(2).toNanos());
        clock.advance(Duration.ofSeconds(2));
        assertEquals(128 + 9, cmd.waitFor());
    }

    @Test
    void aCommandThatExitsOnTermEndsTheRunAtOnceAndWhatItLeftInItsGroupIsKilled() throws IOException {
        // The child ignores TERM and outlives its parent in CMD's process group.
        String child = "trap '' TERM; echo \\$\\$ > " + w + "/child; while :; do sleep 0.05; done";
        start("sh -c \"" + child + "\" & trap 'exit 42' TERM; "
                + "while [ ! -s " + w + "/child ]; do sleep 0.05; done; touch " + w + "/ready; while :; do sleep 0.05; done");
        long childPid = Long.parseLong(Files.readString(w.resolve("child")).strip());
        assertTrue(childPid != cmd.pgid(), "the child's own pid");
        cmd.stop("test", clock.monotonicNanos() + Duration.ofHours(1).toNanos());
        assertEquals(42, cmd.waitFor(), "CMD's own status, without the clock moving towards the deadline");
        Await.until("the child CMD left behind is gone", WITHIN,
                () -> ProcessHandle.of(childPid).map(p -> !p.isAlive()).orElse(true));
    }
}
