package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.HolderTag;
import io.leasehold.spool.ClaimAges;
import io.leasehold.spool.StateCountsContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The item store contract, scheduling and history, the counts per state, and the running claims' ages (brought up to date by a
 * recount), on a real directory.
 */
class PosixItemStoreContractTest extends StateCountsContract {

    @TempDir
    Path dir;
    private PosixItemStore posix;

    @BeforeEach
    void createSpool() throws IOException {
        SpoolLayout layout = new SpoolLayout(dir);
        layout.createFolders();
        PosixSpool posixSpool = new PosixSpool(layout, new SpoolAnomalies(), clock, MAX, HolderTag.named("mine"));
        posix = new PosixItemStore(layout, posixSpool, TERMS, clock);
        store = posix;
        spool = posixSpool;
        theirs = new PosixSpool(layout, new SpoolAnomalies(), clock, MAX, HolderTag.of("their-host", 42));
        outputs = new DirectoryOutputs(layout);
    }

    @Override
    protected boolean putJunkClaim(ClaimName name) throws IOException {
        Files.createDirectory(new SpoolLayout(dir).claimFile(name)); // a directory: the spool's junk
        return true;
    }

    @AfterEach
    void close() {
        posix.close();
    }

    @Override
    protected ClaimAges seen(Duration bound) throws IOException {
        posix.recount();
        return store.claimAgesNow(bound);
    }
}
