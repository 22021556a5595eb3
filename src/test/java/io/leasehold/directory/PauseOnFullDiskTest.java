package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.drain.DrainPause;
import io.leasehold.spool.Pause;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.Tmpfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A pause asked for on a full spool filesystem is refused (the API answers 507) and changes nothing: the record
 * before it stays whole, every instance keeps reading it, nothing is left in tmp/, and the pause goes through once
 * there is room.
 */
class PauseOnFullDiskTest {

    @Test
    void aPauseRefusedForAFullDiskLeavesTheRecordBeforeItAndGoesThroughOnceThereIsRoom() throws IOException {
        try (Tmpfs tmpfs = Tmpfs.mount(Path.of("target/pause-full-disk-tmpfs"), "1m")) {
            SpoolLayout layout = new SpoolLayout(tmpfs.dir().resolve("spool"));
            layout.createFolders();
            DrivenClock clock = new DrivenClock();
            DrainPause pause = new DrainPause(new DirectoryDrainSwitch(layout), clock);
            pause.set(false, "test");
            Path filler = tmpfs.dir().resolve("filler");
            tmpfs.fill(filler);

            IOException refused = assertThrows(IOException.class, () -> pause.set(true, "test"));
            assertTrue(String.valueOf(refused.getMessage()).contains("No space left on device"), refused.getMessage());
            assertFalse(pause.paused(), "what this instance knows is what the spool holds");
            DrainPause other = new DrainPause(new DirectoryDrainSwitch(layout), clock);
            other.refresh();
            assertEquals(false, other.current().map(Pause::paused).orElseThrow(), "the record before it, whole");
            try (Stream<Path> left = Files.list(layout.folder(SpoolFolder.TMP))) {
                assertEquals(0, left.count(), "no half-written record left in tmp/");
            }

            Files.delete(filler);
            assertTrue(pause.set(true, "test").paused());
            other.refresh();
            assertTrue(other.paused());
        }
    }
}
