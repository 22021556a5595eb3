package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.HolderTag;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.HistoryContract;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.RunningClaims;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.LogCapture;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A claim whose record cannot be read (EACCES, EIO) never stops the recount it is listed in. */
class ClaimLooksTest {

    private static final LeaseTerms TERMS = HistoryContract.TERMS;

    @TempDir
    Path dir;

    @Test
    void anUnreadableRecordCountsAsRunningAndTheRecountGoesOn() throws Exception {
        DrivenClock clock = new DrivenClock();
        SpoolLayout layout = new SpoolLayout(dir);
        layout.createFolders();
        PosixSpool spool = new PosixSpool(layout, new SpoolAnomalies(), clock, 1 << 20, HolderTag.named("mine"));
        try (PosixItemStore store = new PosixItemStore(layout, spool, TERMS, clock)) {
            for (String id : new String[] {"held", "finished"}) {
                store.enqueue(id, new ByteArrayInputStream(new byte[] {1}), 1 << 20);
            }
            ClaimName held = spool.claim("held", clock.now()).orElseThrow();
            ClaimName finished = spool.claim("finished", clock.now()).orElseThrow();
            assertTrue(spool.settle(finished, ItemState.DONE));
            AtomicInteger reads = new AtomicInteger();
            RunningClaims running = new RunningClaims();
            ClaimLooks looks = new ClaimLooks(new ClaimLooks.Reader() {
                @Override
                public boolean junk(ClaimName claim) {
                    return false;
                }

                @Override
                public AttemptRecord.Kind kind(ClaimName claim) throws IOException {
                    reads.incrementAndGet();
                    throw new IOException("Input/output error"); // as EIO from a bad disk, or EACCES
                }
            }, running);
            SpoolCensus census = new SpoolCensus();
            SpoolRecount recount = new SpoolRecount(layout, new FolderListing(layout), census, looks, clock);
            try (LogCapture log = LogCapture.of(ClaimLooks.class.getName())) {
                recount.recount();
                clock.advance(TERMS.lease().multipliedBy(5));
                recount.recount();

                assertTrue(census.recounted(), "the recount finished");
                assertEquals(1, census.count(SpoolFolder.DONE), "done/ was counted after claimed/");
                assertEquals(1, census.count(SpoolFolder.CLAIMED));
                assertEquals(1, running.ages(clock.now(), TERMS.lease()).olderThanBound(),
                        held + " counts as running: it may be stuck");
                assertEquals(2, reads.get(), "read again at each recount, not cached");
                assertEquals(1, log.lines().size(), "said once: " + log.lines());
            }
        }
    }
}
