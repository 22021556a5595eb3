package io.leasehold.spool;

import io.leasehold.core.LeaseTerms;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The item store contract on a real directory. */
class PosixItemStoreContractTest extends ItemStoreContract {

    @TempDir
    Path dir;
    private PosixItemStore posix;

    @BeforeEach
    void createSpool() throws IOException {
        SpoolLayout layout = new SpoolLayout(dir);
        layout.createFolders();
        PosixSpool posixSpool = new PosixSpool(layout, new SpoolAnomalies(), clock, MAX);
        posix = new PosixItemStore(layout, posixSpool, new LeaseTerms(Duration.ofSeconds(120), 3,
                Duration.ofSeconds(10)), clock);
        store = posix;
        spool = posixSpool;
    }

    @AfterEach
    void close() {
        posix.close();
    }
}
