package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.DrainSwitchContract;
import io.leasehold.spool.Pause;
import io.leasehold.testing.Fifo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a spool directory, and what a hostile file in place of the pause does. */
class DirectoryDrainSwitchTest extends DrainSwitchContract {

    @TempDir
    Path dir;
    private SpoolLayout layout;

    @BeforeEach
    void open() throws Exception {
        layout = new SpoolLayout(dir);
        layout.createFolders();
        one = new DirectoryDrainSwitch(layout);
        other = new DirectoryDrainSwitch(layout);
    }

    @Override
    protected DrainSwitch reopened() {
        return new DirectoryDrainSwitch(new SpoolLayout(dir));
    }

    @Test
    void thePauseIsOneFileInControlAndNothingIsLeftInTmp() throws Exception {
        one.setPause(new Pause(true, T, "api"));
        one.setPause(new Pause(false, T.plusSeconds(1), "api"));
        try (Stream<Path> files = Files.list(layout.folder(SpoolFolder.CONTROL))) {
            assertEquals(List.of("drain~pause"), files.map(p -> p.getFileName().toString()).toList());
        }
        try (Stream<Path> files = Files.list(layout.folder(SpoolFolder.TMP))) {
            assertEquals(0, files.count(), "nothing left in tmp/");
        }
    }

    @Test
    void aSpoolMadeBeforeControlExistedGetsTheFolderAtTheFirstPause() throws Exception {
        Files.delete(layout.folder(SpoolFolder.CONTROL));
        assertEquals(Optional.empty(), one.pause());
        one.setPause(new Pause(true, T, "api"));
        assertEquals(true, other.pause().orElseThrow().paused());
    }

    @Test
    void aLinkOrAFifoInPlaceOfThePauseIsRefusedUnreadAndAPauseReplacesIt() throws Exception {
        Path outside = Files.writeString(dir.resolveSibling("outside-" + System.nanoTime()), "paused=true\nsince=" + T + "\n");
        Path file = layout.file(SpoolFolder.CONTROL, DirectoryDrainSwitch.FILE);
        Files.createSymbolicLink(file, outside);
        IOException linked = assertThrows(IOException.class, one::pause);
        Files.delete(file);
        Fifo.make(file);
        IOException piped = assertThrows(IOException.class, one::pause); // would block for ever if opened
        one.setPause(new Pause(false, T, "api"));
        assertEquals(false, other.pause().orElseThrow().paused());
        assertEquals("paused=true\nsince=" + T + "\n", Files.readString(outside), "the link's target untouched");
        Files.delete(outside);
        assertTrue(linked.getMessage() != null && piped.getMessage() != null);
    }

    @Test
    void aFileThatIsNoPauseIsRefusedNamingTheFix() throws Exception {
        Files.writeString(layout.file(SpoolFolder.CONTROL, DirectoryDrainSwitch.FILE), "hello\n");
        IOException e = assertThrows(IOException.class, one::pause);
        assertTrue(e.getMessage().contains("POST /drain/pause or /drain/resume"), e.getMessage());
    }
}
