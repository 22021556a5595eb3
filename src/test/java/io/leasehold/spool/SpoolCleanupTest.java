package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Generation;
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

        store.cleanTmp(clock.now().minus(MAX_AGE));
        assertFalse(Files.exists(stale), "a crashed writer's temporary is removed");
        assertTrue(Files.exists(fresh), "one that may still be written is kept");
        assertTrue(Files.exists(floor), "the floor itself is never touched");
    }

    @Test
    void staleFilesInTmpAreRemovedAndFreshOnesKept() throws IOException {
        Path stale = written(layout.file(SpoolFolder.TMP, "enqueue~x~1"), clock.now().minus(MAX_AGE).minusSeconds(1));
        Path fresh = written(layout.file(SpoolFolder.TMP, "enqueue~y~2"), clock.now().minusSeconds(5));

        assertEquals(1, store.cleanTmp(clock.now().minus(MAX_AGE)));
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

        assertEquals(1, store.cleanTmp(clock.now().minus(MAX_AGE)));
        assertFalse(Files.exists(upload));
        assertFalse(Files.exists(layout.file(SpoolFolder.IDS, "crashed")), "the id is unknown again");
        assertTrue(Files.exists(another));
    }

    @Test
    void aStaleUploadStillLinkedIntoPendingLosesOnlyItsTmpName() throws IOException {
        Path upload = written(layout.file(SpoolFolder.TMP, "enqueue~linked~1"), stale());
        Path pending = layout.file(SpoolFolder.PENDING, "linked");
        Files.createLink(pending, upload); // the enqueue crashed between its link and its unlink
        reservation("linked", ino(upload), stale());

        store.cleanTmp(clock.now().minus(MAX_AGE));
        assertEquals("left over", Files.readString(pending), "the item is kept");
        assertEquals(1, names(pending));
        assertTrue(Files.exists(layout.file(SpoolFolder.IDS, "linked")), "and stays known");
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
}
