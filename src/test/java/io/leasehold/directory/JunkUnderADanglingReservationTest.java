package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * Junk under a name whose reservation dangles stays reported: the quick look (File.exists, which follows
 * symlinks) is not what decides there.
 */
class JunkUnderADanglingReservationTest extends StoreTestBase {

    /**
     * ids/x is a dangling symlink: the claim refuses pending/x and reports it, but wouldRefuse (the
     * housekeeping's recheck, reserve=false) takes the quick look as "absent" and answers OWN, so the
     * report is forgotten as fixed although nothing changed; it flaps at every housekeeping round.
     */
    @Test
    void junkUnderADanglingReservationStaysReported() throws IOException {
        Files.createSymbolicLink(layout.file(SpoolFolder.IDS, "x"), dir.resolve("nowhere"));
        Files.writeString(layout.file(SpoolFolder.PENDING, "x"), "payload");
        assertTrue(spool.claim("x", clock.now()).isEmpty(), "not claimed: its reservation is junk");
        assertTrue(anomalies.isKnown(SpoolFolder.PENDING, "x"), "reported");
        spool.forgetFixedJunk();
        assertTrue(anomalies.isKnown(SpoolFolder.PENDING, "x"), "still junk, still reported");
    }
}
