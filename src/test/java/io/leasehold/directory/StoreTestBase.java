package io.leasehold.directory;

import io.leasehold.config.Mapped;
import io.leasehold.core.LeaseTerms;
import io.leasehold.testing.DrivenClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh spool in a temporary folder, with the spool and the item store on it, for tests of real files. */
abstract class StoreTestBase {

    @TempDir
    Path dir;
    SpoolLayout layout;
    final DrivenClock clock = new DrivenClock();
    final SpoolAnomalies anomalies = new SpoolAnomalies();
    PosixSpool spool;
    PosixItemStore store;

    @BeforeEach
    void createSpool() throws IOException {
        layout = new SpoolLayout(dir);
        layout.createFolders();
        spool = new PosixSpool(layout, anomalies, clock, Mapped.defaults().item().maxBytes().asLongValue());
        store = new PosixItemStore(layout, spool, new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10)),
                clock);
    }

    /**
     * The spool as a build older than reservations left it: not known to have every settled item reserved
     * (no marker {@link SettledReserved#MARKER}), reopened so the spool and store look in done/ and failed/.
     * Put its unreserved settled files in first: a spool opened with nothing settled is marked again.
     */
    void asAnOlderSpool() throws IOException {
        Files.deleteIfExists(dir.resolve(SettledReserved.MARKER));
        createSpool();
    }

    static long ino(Path file) throws IOException {
        return ((Number) Files.getAttribute(file, "unix:ino")).longValue();
    }

    static int names(Path file) throws IOException {
        return ((Number) Files.getAttribute(file, "unix:nlink")).intValue();
    }
}
