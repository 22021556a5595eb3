package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Batches of up to leasehold.item.max-batch lines, each one sync of pending/ ({@link RecordingDirectorySync}):
 * directory-only, the syncs are the directory's. The 413s for lines over max-bytes are {@link PayloadLimitContract}.
 */
@QuarkusTest
@TestProfile(BatchLimitsProfile.class)
class BatchLimitsTest {

    @Inject
    SpoolLayout layout;

    @Inject
    RecordingDirectorySync syncs;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    @Test
    void maxBatchLinesAreOneSyncOfPendingAndOneMoreIs413() {
        String prefix = SpoolFixture.uniqueId("most");
        syncs.clear();
        BatchEnqueueContract.post(BatchEnqueueContract.lines(prefix, BatchLimitsProfile.MAX_BATCH)).statusCode(201);
        assertEquals(BatchLimitsProfile.MAX_BATCH, SpoolFixture.names(layout, SpoolFolder.PENDING).size());
        assertEquals(1, syncs.pendingSyncs().size(), "one sync of pending/ for the whole batch");
        assertTrue(syncs.pendingSyncs().get(0).linkedBefore().containsAll(SpoolFixture.names(layout,
                SpoolFolder.PENDING)), "and it began after every link");

        List<String> before = SpoolFixture.census(layout);
        SpoolFixture.assertError(BatchEnqueueContract.post(BatchEnqueueContract.lines(SpoolFixture.uniqueId("over"),
                BatchLimitsProfile.MAX_BATCH + 1)), 413, "line 6: the batch has more than 5 lines"
                + " (leasehold.item.max-batch)");
        assertEquals(before, SpoolFixture.census(layout), "nothing written");
    }
}
