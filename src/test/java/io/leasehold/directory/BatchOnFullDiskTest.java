package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.Mapped;
import io.leasehold.core.LeaseTerms;
import io.leasehold.directory.linux.LinuxCalls;
import io.leasehold.spool.StagedBatch;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.Tmpfs;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A batch that fills the spool's filesystem is refused whole, on the syncfs path where the JDK has the calls
 * (tmpfs is a local filesystem; the linux-calls profile runs this on Java 25) and on the fsync path before:
 * nothing in pending/, no reservation, no staging left, and the same ids go through once there is room.
 */
class BatchOnFullDiskTest {

    private static final int ITEMS = 40;
    private static final byte[] PAYLOAD = new byte[16 * 1024];

    @Test
    void aBatchThatFillsTheDiskIsRefusedWholeAndGoesThroughOnceThereIsRoom() throws IOException {
        try (Tmpfs tmpfs = Tmpfs.mount(Path.of("target/batch-full-disk-tmpfs"), "2m")) {
            SpoolLayout layout = new SpoolLayout(tmpfs.dir().resolve("spool"));
            layout.createFolders();
            DrivenClock clock = new DrivenClock();
            PosixSpool spool = new PosixSpool(layout, new SpoolAnomalies(), clock,
                    Mapped.defaults().item().maxBytes().asLongValue());
            PosixItemStore store = new PosixItemStore(layout, spool,
                    new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10)), clock);
            assertEquals(LinuxCalls.load().map(LinuxCalls::syncsFileSystems).orElse(false), store.batchesSyncBySyncfs(),
                    "tmpfs is a local filesystem: syncfs exactly where the calls have it");
            // Room for about a third of the batch: 40 x 16 KiB = 640 KiB.
            Path filler = tmpfs.dir().resolve("filler");
            long room = Files.getFileStore(tmpfs.dir()).getUsableSpace();
            try (RandomAccessFile f = new RandomAccessFile(filler.toFile(), "rw")) {
                f.write(new byte[(int) (room - 200 * 1024)]);
            }
            IOException full = assertThrows(IOException.class, () -> enqueue(store));
            assertTrue(String.valueOf(full.getMessage()).contains("No space left"), String.valueOf(full));
            assertEquals(List.of(), names(layout, SpoolFolder.PENDING), "an item of a refused batch was enqueued");
            assertEquals(List.of(), names(layout, SpoolFolder.IDS), "a reservation was left");
            assertEquals(List.of(), names(layout, SpoolFolder.TMP), "the staging was left");

            Files.delete(filler);
            enqueue(store);
            assertEquals(ITEMS, names(layout, SpoolFolder.PENDING).size());
            assertEquals(List.of(), names(layout, SpoolFolder.TMP));
        }
    }

    private static void enqueue(PosixItemStore store) throws IOException {
        try (StagedBatch batch = store.stageBatch(1 << 20)) {
            for (int i = 0; i < ITEMS; i++) {
                batch.payload(i + 1, "full-" + i).write(PAYLOAD);
                batch.item(i + 1, "full-" + i);
            }
            batch.commit();
        }
    }

    private static List<String> names(SpoolLayout layout, SpoolFolder folder) throws IOException {
        try (Stream<Path> files = Files.list(layout.folder(folder))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
