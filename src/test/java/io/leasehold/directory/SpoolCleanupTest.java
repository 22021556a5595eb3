package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.Staleness;
import io.leasehold.testing.Reservation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What crashes leave behind, and that the cleanup removes only that. */
class SpoolCleanupTest extends StoreTestBase {

    static final Duration MAX_AGE = Duration.ofHours(1);


    /** One pass with no quiet span: the wall clock's rule alone (the quiet span has tests of its own below). */
    private int clean() throws IOException {
        return store.cleanTmp(new Staleness(clock.now().minus(MAX_AGE), Duration.ZERO));
    }

    private Path written(Path file, Instant at) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "left over");
        Files.setLastModifiedTime(file, FileTime.from(at));
        return file;
    }

    @Test
    void aCrashedEpochFloorTemporaryOutsideTmpIsRemovedOnceStale() throws IOException {
        Path stale = written(dir.resolve("lease/epoch-floor.tmp-4242-99"), clock.now().minus(MAX_AGE).minusSeconds(1));
        Path fresh = written(dir.resolve("lease/epoch-floor.tmp-4243-100"), clock.now());
        Path floor = written(dir.resolve("lease/epoch-floor"), clock.now().minus(Duration.ofDays(9)));

        clean();
        assertFalse(Files.exists(stale), "a crashed writer's temporary is removed");
        assertTrue(Files.exists(fresh), "one that may still be written is kept");
        assertTrue(Files.exists(floor), "the floor itself is never touched");
    }

    @Test
    void staleFilesInTmpAreRemovedAndFreshOnesKept() throws IOException {
        Path stale = written(layout.file(SpoolFolder.TMP, "enqueue~x~1"), clock.now().minus(MAX_AGE).minusSeconds(1));
        Path fresh = written(layout.file(SpoolFolder.TMP, "enqueue~y~2"), clock.now().minusSeconds(5));

        assertEquals(1, clean());
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(fresh));
    }

    private Instant stale() {
        return clock.now().minus(MAX_AGE).minusSeconds(1);
    }

    private Path reservation(String id, long ino, Instant at) throws IOException {
        Path file = Files.writeString(layout.file(SpoolFolder.IDS, id), ino + "\n");
        Files.setLastModifiedTime(file, FileTime.from(at));
        return file;
    }

    @Test
    void aStaleUploadThatNeverBecameAnItemTakesItsReservationWithIt() throws IOException {
        Path upload = written(layout.file(SpoolFolder.TMP, "enqueue~crashed~1"), stale());
        reservation("crashed", ino(upload), stale());
        Path another = reservation("other", ino(upload) + 1, stale()); // someone else's: never touched

        assertEquals(1, clean());
        assertFalse(Files.exists(upload));
        assertFalse(Reservation.present(layout.file(SpoolFolder.IDS, "crashed")), "the id is unknown again");
        assertTrue(Files.exists(another));
    }

    @Test
    void aStaleUploadStillLinkedIntoPendingLosesOnlyItsTmpName() throws IOException {
        Path upload = written(layout.file(SpoolFolder.TMP, "enqueue~linked~1"), stale());
        Path pending = layout.file(SpoolFolder.PENDING, "linked");
        Files.createLink(pending, upload); // the enqueue crashed between its link and its unlink
        reservation("linked", ino(upload), stale());

        clean();
        assertEquals("left over", Files.readString(pending), "the item is kept");
        assertEquals(1, names(pending));
        assertTrue(Reservation.present(layout.file(SpoolFolder.IDS, "linked")), "and stays known");
    }

    @Test
    void reservationsWhoseItemIsNowhereAreSweptOnceStaleAndNoOthers() throws IOException {
        reservation("gone", 1, stale());                              // its enqueue or purge crashed
        reservation("young", 2, clock.now());                         // may be an enqueue starting now
        reservation("waiting", 3, stale());
        Files.writeString(layout.file(SpoolFolder.PENDING, "waiting"), "x");
        reservation("settled", 4, stale());
        Files.writeString(layout.file(SpoolFolder.DONE, "settled"), "x");
        reservation("uploading", 5, stale());
        Files.writeString(layout.file(SpoolFolder.TMP, "enqueue~uploading~9"), "streaming");
        Files.writeString(layout.file(SpoolFolder.ATTEMPTS, "gone"), "junk is never removed by the sweep");

        store.sweepBookkeeping(clock.now().minus(MAX_AGE));
        assertEquals(List.of("settled", "uploading", "waiting", "young"), SpoolTree.names(layout, SpoolFolder.IDS));
    }

    @Test
    void reservationLinksWhoseItemIsNowhereAreSweptOnceStaleAndJunkLinksNever() throws IOException {
        Path gone = link("gone-link", "11", stale());
        Path young = link("young-link", "12", clock.now());
        Path junk = link("junk-link", dir.resolve("elsewhere").toString(), stale()); // a path: not a reservation

        store.sweepBookkeeping(clock.now().minus(MAX_AGE));
        assertFalse(Reservation.present(gone), "a crashed enqueue's link goes, and the id is unknown again");
        assertTrue(Reservation.present(young), "an enqueue starting now keeps its id");
        assertTrue(Reservation.present(junk), "junk is left for a person");
    }

    private Path link(String id, String target, Instant at) throws IOException {
        Path file = Files.createSymbolicLink(layout.file(SpoolFolder.IDS, id), Path.of(target));
        Files.getFileAttributeView(file, java.nio.file.attribute.BasicFileAttributeView.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS).setTimes(FileTime.from(at), FileTime.from(at), null);
        return file;
    }

    @Test
    void recordsAndOldReasonsOfItemsDoneOrGoneAreSwept() throws IOException {
        Generation g = Generation.parse("2-abc").orElseThrow();
        for (String id : List.of("done", "gone", "failing", "known")) {
            spool.writeRecord(id, g, AttemptRecord.note(1, "x"));
            Files.setLastModifiedTime(layout.file(SpoolFolder.ATTEMPTS, id), FileTime.from(stale()));
            Files.writeString(layout.file(SpoolFolder.REASONS, id), "1-abc 0\nold");
        }
        Files.writeString(layout.file(SpoolFolder.DONE, "done"), "x");
        Files.writeString(layout.file(SpoolFolder.FAILED, "failing"), "x");
        reservation("known", 7, clock.now()); // an enqueue under way: its id's bookkeeping is left

        store.sweepBookkeeping(clock.now().minus(MAX_AGE));
        assertEquals(List.of("failing", "known"), SpoolTree.names(layout, SpoolFolder.ATTEMPTS));
        assertEquals(List.of("failing", "known"), SpoolTree.names(layout, SpoolFolder.REASONS));
    }

    private static final Duration QUIET = Duration.ofSeconds(30);

    private int cleanWithQuietSpan() throws IOException {
        return store.cleanTmp(new Staleness(clock.now().minus(MAX_AGE), QUIET));
    }

    /** Another writer's upload getting its next bytes, dated by that writer's true clock. */
    private static void written(Path upload, String more, Instant trueNow) throws IOException {
        Files.writeString(upload, more, java.nio.file.StandardOpenOption.APPEND);
        Files.setLastModifiedTime(upload, FileTime.from(trueNow));
    }

    @Test
    void aWallClockSteppedAheadNeverRemovesALiveUploadOfAnotherWriter() throws IOException {
        Instant trueNow = clock.now();
        Path upload = written(layout.file(SpoolFolder.TMP, "enqueue~live~1"), trueNow);
        Path reservation = reservation("live", ino(upload), trueNow);
        clock.set(clock.now().plus(Duration.ofHours(2))); // an NTP step: this cleaner's wall clock only

        for (int pass = 0; pass < 6; pass++) {
            assertEquals(0, cleanWithQuietSpan(), "pass " + pass + ": every upload file is an hour older than the cutoff");
            assertTrue(Files.exists(upload) && Files.exists(reservation), "a live upload is kept at pass " + pass);
            clock.advance(QUIET.minusSeconds(5)); // its body still streams in: the file changes within the span
            trueNow = trueNow.plus(QUIET.minusSeconds(5));
            written(upload, " more", trueNow);
        }
    }

    @Test
    void aLeftoverIsRemovedOnlyOnceThisInstanceSawItUnchangedForTheQuietSpan() throws IOException {
        Path upload = written(layout.file(SpoolFolder.TMP, "enqueue~crashed~1"), stale());
        reservation("crashed", ino(upload), stale());

        assertEquals(0, cleanWithQuietSpan(), "first seen now: not quiet for long enough yet");
        clock.advance(QUIET.minusSeconds(1));
        assertEquals(0, cleanWithQuietSpan());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(1, cleanWithQuietSpan(), "unchanged for the quiet span, on this instance's monotonic clock");
        assertFalse(Files.exists(upload));
        assertFalse(Reservation.present(layout.file(SpoolFolder.IDS, "crashed")), "the id is unknown again");
    }

    @Test
    void aLeftoverThatChangesStartsItsQuietSpanAgain() throws IOException {
        Path upload = written(layout.file(SpoolFolder.TMP, "enqueue~slow~1"), stale());
        assertEquals(0, cleanWithQuietSpan());
        clock.advance(QUIET.minusSeconds(1));
        written(upload, " more", stale()); // same old time, new size: a writer is there
        assertEquals(0, cleanWithQuietSpan());
        clock.advance(QUIET.minusSeconds(1));
        assertEquals(0, cleanWithQuietSpan(), "counted from the change");
        assertTrue(Files.exists(upload));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(1, cleanWithQuietSpan());
    }
}
