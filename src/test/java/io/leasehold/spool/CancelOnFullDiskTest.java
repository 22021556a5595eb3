package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.leasehold.config.Mapped;
import io.leasehold.core.LeaseTerms;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.Tmpfs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Found while checking ErrorAnswers' 507 (review): a cancel on a full spool filesystem is answered
 * 507 "nothing was written, try again", yet it leaves the item claimed under the cancel's own claim,
 * which nobody renews: a retried cancel is refused (409, claimed), and once the lease runs out a drain
 * takes the item over and runs it: the item the operator cancelled.
 */
class CancelOnFullDiskReviewTest {

    @Test
    void aCancelRefusedForAFullDiskLeavesTheItemPending() throws IOException {
        try (Tmpfs tmpfs = Tmpfs.mount(Path.of("target/review-cancel-tmpfs"), "1m")) {
            SpoolLayout layout = new SpoolLayout(tmpfs.dir().resolve("spool"));
            layout.createFolders();
            DrivenClock clock = new DrivenClock();
            PosixSpool spool = new PosixSpool(layout, new SpoolAnomalies(), clock,
                    Mapped.defaults().item().maxBytes().asLongValue());
            PosixItemStore store = new PosixItemStore(layout, spool,
                    new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10)), clock);
            store.enqueue("c1", new ByteArrayInputStream(new byte[] {'x'}), 1024);
            tmpfs.fill(tmpfs.dir().resolve("filler"));
            IOException refused = assertThrows(IOException.class, () -> store.cancel("c1"));
            assertEquals("pending", store.lookup("c1").orElseThrow().state(),
                    "after the cancel was refused (" + refused.getMessage() + ")");
        }
    }
}
