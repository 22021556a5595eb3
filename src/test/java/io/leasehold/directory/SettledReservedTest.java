package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.Mapped;
import io.leasehold.core.LeaseTerms;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A first claim of a dropped-in file skips its look in done/ and failed/ for a file of an older spool only
 * where every settled item is known to have its reservation: a spool opened with both folders empty, or one
 * housekeeping checked whole. Anywhere else it looks, and an item of an older spool still keeps its id.
 */
class SettledReservedTest extends StoreTestBase {

    private PosixSpool reopen() {
        return new PosixSpool(layout, anomalies, clock, Mapped.defaults().item().maxBytes().asLongValue());
    }

    private PosixItemStore storeOn(PosixSpool s) {
        return new PosixItemStore(layout, s, new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10)), clock);
    }

    @Test
    void aSpoolOpenedWithNothingSettledIsKnownToHaveEverySettledItemReserved() {
        assertTrue(Files.exists(dir.resolve(SettledReserved.MARKER)));
        assertTrue(spool.reservations().settled().all());
    }

    @Test
    void aSpoolOfAnOlderBuildIsNotMarkedAndAFileDroppedInUnderItsSettledIdNeverRuns() throws Exception {
        Files.delete(dir.resolve(SettledReserved.MARKER));
        Files.writeString(layout.file(SpoolFolder.DONE, "old"), "settled before reservations");
        PosixSpool older = reopen();
        assertFalse(older.reservations().settled().all());

        Files.writeString(layout.file(SpoolFolder.PENDING, "old"), "a second file under a known id");
        assertEquals(Optional.empty(), older.claim("old", clock.now()), "looked in done/ and found the first");
        assertTrue(anomalies.isKnown(SpoolFolder.PENDING, "old"));
        storeOn(older).sweepBookkeeping(clock.now());
        assertFalse(Files.exists(dir.resolve(SettledReserved.MARKER)), "done/old has no reservation: not marked");
    }

    @Test
    void housekeepingMarksTheSpoolOnceEverySettledItemHasItsReservation() throws Exception {
        Files.delete(dir.resolve(SettledReserved.MARKER));
        Files.writeString(layout.file(SpoolFolder.DONE, "old"), "settled before reservations");
        Files.writeString(layout.file(SpoolFolder.FAILED, "new"), "settled with its reservation");
        Files.writeString(layout.file(SpoolFolder.IDS, "new"), ino(layout.file(SpoolFolder.FAILED, "new")) + "\n");
        PosixSpool older = reopen();
        storeOn(older).sweepBookkeeping(clock.now());
        assertFalse(older.reservations().settled().all());

        Files.writeString(layout.file(SpoolFolder.IDS, "old"), ino(layout.file(SpoolFolder.DONE, "old")) + "\n");
        storeOn(older).sweepBookkeeping(clock.now());
        assertTrue(older.reservations().settled().all());
        assertTrue(Files.exists(dir.resolve(SettledReserved.MARKER)));
        assertTrue(reopen().reservations().settled().all(), "kept in the spool for every instance");
    }

    @Test
    void aRetryThatMeetsAFailedItemWithoutItsReservationMakesFirstClaimsLookAgain() throws Exception {
        assertTrue(spool.reservations().settled().all());
        Files.writeString(layout.file(SpoolFolder.FAILED, "u"), "settled by a build older than reservations");
        store.retry("u");
        assertFalse(spool.reservations().settled().all());
        assertFalse(Files.exists(dir.resolve(SettledReserved.MARKER)), "for every instance");
    }
}
