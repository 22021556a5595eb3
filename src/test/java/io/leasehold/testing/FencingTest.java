package io.leasehold.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.ActLog.Act;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Fencing}'s judgement of acts, and {@link ActLog}'s shell loop and parsing on a real file. */
class FencingTest {

    @TempDir
    Path dir;

    private static Act act(long epoch, long at, String who) {
        return new Act(epoch, at, who);
    }

    @Test
    void epochsInTurnAreFencedAndTheSmallestMarginIsReported() {
        Fencing f = Fencing.of(List.of(act(3, 1000, "a"), act(3, 1500, "a"), act(3, 1500, "exec"),
                act(5, 2500, "b"), act(5, 2600, "b"), act(9, 2700, "c")));
        f.assertFenced("in turn");
        assertEquals(3, f.spans().size());
        assertEquals(List.of(1000L, 100L), f.handovers().stream().map(Fencing.Handover::marginMillis).toList());
        assertEquals(100, f.minMarginMillis().getAsLong());
    }

    @Test
    void anOldEpochActingAfterTheNextOnesFirstActIsNotFenced() {
        // File order is not time order: the late act of epoch 1 was appended before epoch 2's first.
        Fencing f = Fencing.of(List.of(act(1, 1000, "a"), act(1, 2800, "a"), act(2, 2000, "b"), act(2, 2100, "b")));
        AssertionError e = assertThrows(AssertionError.class, () -> f.assertFenced("overlap"));
        assertTrue(e.getMessage().contains("epoch 1 acted 800 ms after epoch 2's first act (1 acts at or after it, by [a]"),
                e.getMessage());
        assertEquals(-800, f.minMarginMillis().getAsLong());
    }

    @Test
    void theSameTickIsNotBefore() {
        Fencing f = Fencing.of(List.of(act(1, 1000, "a"), act(2, 1000, "b")));
        assertThrows(AssertionError.class, () -> f.assertFenced("same tick"));
        assertEquals(0, f.minMarginMillis().getAsLong());
    }

    @Test
    void anEpochGoingBackwardsIsNotFenced() {
        // Epoch 1 after 500 had acted: as after a wipe with a floor that was not read.
        Fencing f = Fencing.of(List.of(act(500, 1000, "service"), act(1, 4000, "exec")));
        AssertionError e = assertThrows(AssertionError.class, () -> f.assertFenced("backwards"));
        assertTrue(e.getMessage().contains("epoch 1 -> 500: NOT FENCED"), e.getMessage());
    }

    @Test
    void aMiddleEpochOverlappingItsSuccessorIsFoundAmongGoodHandovers() {
        Fencing f = Fencing.of(List.of(act(1, 100, "a"), act(2, 200, "b"), act(2, 450, "b"), act(3, 400, "c"),
                act(4, 900, "d")));
        AssertionError e = assertThrows(AssertionError.class, () -> f.assertFenced("middle"));
        assertTrue(e.getMessage().contains("epoch 2 -> 3: NOT FENCED"), e.getMessage());
        assertTrue(!e.getMessage().contains("epoch 1 -> 2: NOT") && !e.getMessage().contains("epoch 3 -> 4: NOT"),
                e.getMessage());
    }

    @Test
    void oneEpochHasNoHandover() {
        Fencing f = Fencing.of(List.of(act(7, 1, "a"), act(7, 2, "b")));
        assertTrue(f.handovers().isEmpty());
        assertTrue(f.minMarginMillis().isEmpty());
        f.assertFenced("one epoch");
    }

    @Test
    void theShellLoopWritesActsThatParseOnTheTestsClock() throws Exception {
        ActLog log = ActLog.in(dir);
        long before = ActLog.nowMillis();
        ProcessBuilder sh = new ProcessBuilder("/bin/sh", "-c", log.acts("w/$$", 3));
        sh.environment().putAll(Map.of("LEASEHOLD_EPOCH", "42"));
        Process p = sh.start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0);
        long after = ActLog.nowMillis();

        List<Act> acts = log.read();
        assertEquals(3, acts.size(), acts.toString());
        for (Act a : acts) {
            assertEquals(42, a.epoch());
            assertEquals("w/" + p.pid(), a.who());
            assertTrue(a.atMillis() >= before && a.atMillis() <= after, a + " within " + before + ".." + after);
        }
        assertTrue(acts.get(2).atMillis() - acts.get(0).atMillis() >= 2 * ActLog.EVERY.toMillis() - 10, acts.toString());
    }

    @Test
    void aLineStillBeingWrittenIsLeftForTheNextRead() throws IOException {
        ActLog log = ActLog.in(dir);
        Files.writeString(log.file(), "3 417.61 a/1\n3 417.6", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(List.of(act(3, 417_610, "a/1")), log.read());
        assertEquals(12_340, ActLog.uptimeMillis("12.34"));
        assertEquals(12_000, ActLog.uptimeMillis("12"));
    }
}
