package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import io.leasehold.spool.Staleness;
import io.leasehold.testing.Reservation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A batch whose maker stops at each step of its commit (a seam throws there, and the maker never closes
 * it, as a killed process would not), then the recovery of another store on the same spool: rolled back
 * before the marker, rolled forward from it on, whole either way, and idempotent.
 */
class BatchRecoveryTest extends StoreTestBase {

    private static final int N = 5;
    private static final long MAX = 1 << 20;

    /** The maker dies here. */
    private static final class Stop extends RuntimeException {
        Stop(String step) {
            super("stopped at " + step);
        }
    }

    private static byte[] payload(int i) {
        byte[] b = ("item " + i + " ").repeat(i + 1).getBytes(StandardCharsets.UTF_8);
        b[0] = (byte) (0x80 + i); // not text: bytes are kept as they are
        return b;
    }

    private List<String> ids(String prefix) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            ids.add(prefix + "-" + i);
        }
        return ids;
    }

    /** Stages N items and commits, dying at {@code stopAt} (null: during staging, after 2 items). */
    private StagedBatch abandoned(List<String> ids, String stopAt) throws IOException {
        PosixStagedBatch batch = (PosixStagedBatch) store.stageBatch(MAX);
        for (int i = 0; i < (stopAt == null ? 2 : N); i++) {
            batch.payload(i + 1, i % 2 == 0 ? ids.get(i) : null).write(payload(i)); // ids before and after payloads
            batch.item(i + 1, ids.get(i));
        }
        if (stopAt != null) {
            batch.steps = step -> {
                if (step.equals(stopAt)) {
                    throw new Stop(step);
                }
            };
            assertThrows(Stop.class, batch::commit);
        }
        return batch;
    }

    /** What another process finds and finishes: a store of its own, everything older than now stale. */
    private int recoverElsewhere(Instant cutoff) throws IOException {
        PosixItemStore other = new PosixItemStore(layout, spool, new LeaseTerms(Duration.ofSeconds(120), 3,
                Duration.ofSeconds(10)), clock);
        return other.cleanTmp(new Staleness(cutoff, Duration.ZERO)); // the quiet span is SpoolCleanupTest's
    }

    private static Instant allStale() {
        return Instant.now().plusSeconds(3600);
    }

    private void assertNone(List<String> ids) {
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.PENDING), "no item of the batch in pending/");
        for (String id : ids) {
            assertFalse(Reservation.present(layout.file(SpoolFolder.IDS, id)), id + " is unknown again");
        }
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.TMP), "no staging left");
    }

    private void assertAll(List<String> ids) throws IOException {
        assertEquals(ids, SpoolTree.names(layout, SpoolFolder.PENDING), "every item of the batch in pending/");
        for (int i = 0; i < N; i++) {
            Path item = layout.file(SpoolFolder.PENDING, ids.get(i));
            assertArrayEquals(payload(i), Files.readAllBytes(item));
            assertEquals(1, names(item), "its only name is pending/");
            assertEquals(Long.toString(ino(item)), Reservation.text(layout.file(SpoolFolder.IDS, ids.get(i))).trim(),
                    "its reservation names it");
        }
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.TMP), "no staging left");
    }

    @Test
    void stoppedWhileStagingIsRolledBack() throws IOException {
        List<String> ids = ids("staging");
        abandoned(ids, null);
        assertEquals(1, recoverElsewhere(allStale()));
        assertNone(ids);
    }

    @Test
    void stoppedAfterStagingBeforeTheMarkerIsRolledBack() throws IOException {
        List<String> ids = ids("staged");
        abandoned(ids, "staged");
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.PENDING), "the drain can see nothing of it");
        assertEquals(1, recoverElsewhere(allStale()));
        assertNone(ids);
    }

    @ParameterizedTest
    @ValueSource(strings = {"committed", "linked 1", "linked 3", "linked 5", "synced"})
    void stoppedFromTheMarkerOnIsRolledForwardWholeAndOnlyOnce(String step) throws IOException {
        List<String> ids = ids("at-" + step.replace(' ', '-'));
        abandoned(ids, step);
        assertEquals(1, recoverElsewhere(allStale()));
        assertAll(ids);
        assertEquals(0, recoverElsewhere(allStale()), "nothing left to do");
        assertAll(ids);
    }

    @Test
    void aBatchStillBeingMadeIsLeftAloneUntilStale() throws IOException {
        List<String> ids = ids("live");
        StagedBatch live = abandoned(ids, null);
        Path staging = Files.list(layout.folder(SpoolFolder.TMP)).findFirst().orElseThrow();

        assertEquals(0, recoverElsewhere(Instant.now().minusSeconds(3600)), "fresh, and its maker (this JVM) is alive");
        assertTrue(Files.exists(staging.resolve(ids.get(0))));
        assertEquals(0, store.cleanTmp(new Staleness(allStale(), Duration.ZERO)), "its own maker's housekeeping never touches it");
        assertTrue(Files.exists(staging.resolve(ids.get(0))));
        live.close();
        assertNone(ids);
    }

    @Test
    void aBatchOfAProvablyDeadMakerIsFinishedAtOnce() throws IOException {
        List<String> ids = ids("dead");
        abandoned(ids, "linked 2");
        Path staging = Files.list(layout.folder(SpoolFolder.TMP)).findFirst().orElseThrow();
        String name = staging.getFileName().toString();
        String me = MakerIdentity.current();
        // The same pid with another start time: the process that made it is gone and its pid reused.
        String dead = me.substring(0, me.lastIndexOf('.') + 1) + "1";
        Files.move(staging, staging.resolveSibling(name.replace(me, dead)));

        assertEquals(1, recoverElsewhere(Instant.now().minusSeconds(3600)), "fresh, but its maker is dead");
        assertAll(ids);
    }

    @Test
    void aRollBackNeverReleasesAReservationCreatedAndNotYetWritten() throws IOException {
        List<String> ids = ids("racing");
        // Another enqueue between its create and its write: an empty reservation, under load for longer
        // than any number of looks. The batch that loses the id to it must leave it alone.
        Files.writeString(layout.file(SpoolFolder.IDS, ids.get(0)), "");
        StagedBatch batch = store.stageBatch(MAX);
        assertThrows(ItemStore.DuplicateItemException.class, () -> batch.payload(1, ids.get(0)));
        batch.close();
        assertTrue(Reservation.present(layout.file(SpoolFolder.IDS, ids.get(0))), "the other maker's reservation is kept");
    }

    @Test
    void aRollBackNeverReleasesAnotherEnqueuesReservation() throws IOException {
        List<String> ids = ids("theirs");
        StagedBatch batch = store.stageBatch(MAX);
        batch.payload(1, ids.get(0)).write(payload(0));
        batch.item(1, ids.get(0));
        Files.writeString(layout.file(SpoolFolder.IDS, ids.get(1)), "4242\n"); // another enqueue's id
        batch.payload(2, null).write(payload(1));
        assertThrows(ItemStore.DuplicateItemException.class, () -> batch.item(2, ids.get(1)));
        batch.close();
        assertEquals("4242", Reservation.text(layout.file(SpoolFolder.IDS, ids.get(1))).trim());
        assertFalse(Reservation.present(layout.file(SpoolFolder.IDS, ids.get(0))));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.TMP));
    }
}
