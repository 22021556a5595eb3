package io.leasehold.directory;

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
 * A cancel refused for a full spool filesystem (507, "nothing was written, try again") leaves the item
 * pending, never claimed under the cancel's own claim that nobody renews (which a drain would take over
 * once its lease ran out, and run: the item the operator cancelled).
 */
class CancelOnFullDiskTest {

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
