package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A move into a shared name is link then unlink; a crash between the two leaves one file under two
 * names. Each half-done state is staged on disk here, and whoever next looks at the item finishes the
 * move the documented way: the settled name wins over a claim, pending/ wins over a claim handed back
 * and over an upload. Anything else is junk and runs nowhere.
 */
class CrashPairsTest extends SpoolTestBase {

    private ClaimName stageClaim(String id, String generation, Instant reading, String payload) throws IOException {
        ClaimName claim = new ClaimName(id, Generation.parse(generation).orElseThrow(), reading);
        Files.writeString(layout.claimFile(claim), payload);
        return claim;
    }

    /** A record as the claim of that generation writes it: attempts/<id>/<generation>. */
    private void stageRecord(String id, String generation, String content) throws IOException {
        Path folder = Files.createDirectories(layout.file(SpoolFolder.ATTEMPTS, id));
        Files.writeString(folder.resolve(generation), content);
    }

    private static int names(Path file) throws IOException {
        return ((Number) Files.getAttribute(file, "unix:nlink")).intValue();
    }

    private void secondName(Path existing, Path another) throws IOException {
        Files.createLink(another, existing);
    }

    /** After a poll that found nothing to work on: no claim held, none left, no handler started. */
    private void assertNothingRuns(Instance instance) throws IOException {
        assertEquals(0, instance.drainer.claimsHeld(), "holds nothing");
        assertTrue(instance.handler.started.isEmpty(), "ran nothing: " + instance.handler.started);
    }

    @Test
    void aClaimAlsoInDoneIsSettledAlreadyAndTheTakeoverOnlyRemovesTheClaim() throws IOException {
        ClaimName dead = stageClaim("a", "2-dead", T0, "payload a");
        secondName(layout.claimFile(dead), layout.file(SpoolFolder.DONE, "a"));

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER));
        taker.poll();
        assertNothingRuns(taker);
        assertEquals(List.of(), claims());
        assertEquals("payload a", Files.readString(layout.file(SpoolFolder.DONE, "a")));
        assertEquals(1, names(layout.file(SpoolFolder.DONE, "a")), "one name left");
        assertEquals(0, taker.events.count("tookOver:a:3"));
    }

    @Test
    void aClaimAlsoInFailedIsSettledAlreadyToo() throws IOException {
        ClaimName dead = stageClaim("f", "1-dead", T0, "payload f");
        secondName(layout.claimFile(dead), layout.file(SpoolFolder.FAILED, "f"));

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER), 1, true); // would give up: must not settle twice
        taker.poll();
        assertNothingRuns(taker);
        assertEquals(List.of(), claims());
        assertFalse(settledIn(SpoolFolder.DONE, "f"));
        assertEquals(1, names(layout.file(SpoolFolder.FAILED, "f")), "one name left");
    }

    @Test
    void aPendingFileThatIsStillAClaimWasHandedBackAndRunsOnceAtTheSameAttempt() throws IOException {
        ClaimName handingBack = stageClaim("h", "3-gone", T0, "payload h");
        // What the hand-back wrote before its link: the attempt and the abandoned count travel with the item.
        stageRecord("h", "3-gone", "v2 handed-back 2\nattempt 2 was abandoned");
        secondName(layout.claimFile(handingBack), layout.file(SpoolFolder.PENDING, "h"));

        Instance next = instance(T0.plusSeconds(1));
        next.poll();
        next.handler.awaitStarted("h", 3);
        List<ClaimName> held = claims();
        assertEquals(1, held.size(), "one claim of h, not two: " + held);
        assertEquals(3, held.get(0).generation().attempt());
        assertFalse(Files.exists(layout.claimFile(handingBack)), "the handed-back claim's name is gone");

        // Long after the old claim's lease: nobody runs h a second time.
        Instance other = instance(T0.plus(Instance.TAKEABLE_AFTER));
        other.poll();
        assertTrue(other.handler.started.isEmpty());
        next.handler.finish("h", Outcome.done());
        Await.until("h is done", WAIT, () -> settledIn(SpoolFolder.DONE, "h"));
        assertEquals(1, next.handler.started.size());
    }

    @Test
    void aTakeoverThatMeetsAHandBackLeavesTheItemToPendingAndItRunsOnce() throws IOException {
        ClaimName handingBack = stageClaim("t", "2-gone", T0, "payload t");
        stageRecord("t", "2-gone", "v2 handed-back 1\nattempt 1 was abandoned");
        secondName(layout.claimFile(handingBack), layout.file(SpoolFolder.PENDING, "t"));

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER));
        taker.poll(); // takeovers come first: this one meets the pending name and steps back
        taker.handler.awaitStarted("t", 2);
        assertEquals(1, taker.handler.started.size(), "one attempt: " + taker.handler.started);
        assertEquals(1, claims().size(), "claims: " + claims());
        assertEquals(0, taker.events.count("tookOver:t:3"));
    }

    @Test
    void anUploadStillLinkedInTmpIsAnEnqueueInFlightAndIsLeftUntilItsWriterUnlinksIt() throws IOException {
        Path upload = layout.file(SpoolFolder.TMP, "enqueue~u~1234");
        Files.writeString(upload, "payload u");
        Files.setLastModifiedTime(upload, FileTime.from(T0));
        secondName(upload, layout.file(SpoolFolder.PENDING, "u"));

        Instance instance = instance(T0.plusSeconds(1));
        instance.poll();
        assertNothingRuns(instance);
        assertTrue(instance.anomalies.list().isEmpty(), "an enqueue in flight is not junk: " + instance.anomalies.list());

        Files.delete(upload); // the writer's unlink, microseconds later, and then its nudge: no poll needed
        instance.drainer.nudge("u");
        instance.handler.awaitStarted("u", 1);
    }

    @Test
    void anUploadLeftLinkedInTmpByACrashIsFinishedByTheClaim() throws IOException {
        Path upload = layout.file(SpoolFolder.TMP, "enqueue~c~5678");
        Files.writeString(upload, "payload c");
        Files.setLastModifiedTime(upload, FileTime.from(T0.minus(Duration.ofMinutes(5))));
        secondName(upload, layout.file(SpoolFolder.PENDING, "c"));

        Instance instance = instance(T0);
        instance.poll();
        instance.handler.awaitStarted("c", 1);
        assertFalse(Files.exists(upload), "the crashed enqueue's tmp name is removed");
    }

    @Test
    void aPendingFileWithANameOutsideTheSpoolIsJunkAndNeverRuns() throws IOException {
        Path outside = Files.writeString(dir.resolve("outside"), "not yours");
        secondName(outside, layout.file(SpoolFolder.PENDING, "x"));

        Instance instance = instance(T0);
        instance.poll();
        instance.poll();
        assertNothingRuns(instance);
        assertTrue(Files.exists(layout.file(SpoolFolder.PENDING, "x")), "left alone");
        assertTrue(instance.anomalies.list().stream().anyMatch(a -> a.name().equals("x")
                && a.problem().contains("names")), instance.anomalies.list().toString());
    }

    @Test
    void aPendingFileThatIsAlsoDoneIsJunkAndDoneStaysAsItWas() throws IOException {
        Files.writeString(layout.file(SpoolFolder.DONE, "d"), "ran once");
        secondName(layout.file(SpoolFolder.DONE, "d"), layout.file(SpoolFolder.PENDING, "d"));

        Instance instance = instance(T0);
        instance.poll();
        assertNothingRuns(instance);
        assertEquals("ran once", Files.readString(layout.file(SpoolFolder.DONE, "d")));
        assertTrue(instance.anomalies.list().stream().anyMatch(a -> a.name().equals("d")),
                instance.anomalies.list().toString());
    }

    @Test
    void aHolderThatRecordedItsFailedVerdictAndStoppedIsSettledByItsTakerNotRunAgain() throws IOException {
        ClaimName stopped = stageClaim("v", "2-dead", T0, "payload v");
        stageRecord("v", "2-dead", "v2 failed 1\nexit 2: no such table");

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER));
        taker.poll();
        assertNothingRuns(taker);
        assertTrue(settledIn(SpoolFolder.FAILED, "v"));
        assertEquals(List.of(), claims());
        assertEquals("exit 2: no such table", new io.leasehold.directory.PosixItemStore(layout, taker.spool, Instance.TERMS,
                taker.clock).lookup("v").orElseThrow().reason());
    }
}
