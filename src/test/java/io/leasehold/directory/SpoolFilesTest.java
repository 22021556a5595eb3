package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.UnfitFileException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every way a file under a spool name can be unfit to read, on real files. */
class SpoolFilesTest {

    @TempDir
    Path dir;

    @Test
    void readsARegularFileUpToAndIncludingTheBound() throws Exception {
        Path file = Files.write(dir.resolve("item"), new byte[] {1, 2, 3, 4});
        assertArrayEquals(new byte[] {1, 2, 3, 4}, SpoolFiles.readBounded(file, 4));
    }

    @Test
    void aFileOverTheBoundIsOversizedAndNamesSizeAndLimit() throws Exception {
        Path file = Files.write(dir.resolve("item"), new byte[5]);
        UnfitFileException e = assertThrows(UnfitFileException.class, () -> SpoolFiles.readBounded(file, 4));
        assertEquals(UnfitFileException.Kind.OVERSIZED, e.kind());
        assertEquals("item is 5 bytes, more than the limit of 4 bytes (leasehold.item.max-bytes)", e.getMessage());
    }

    @Test
    void aSymlinkIsNeverFollowed() throws Exception {
        Path outside = Files.writeString(dir.resolve("secret"), "not yours");
        Path link = Files.createSymbolicLink(dir.resolve("item"), outside);
        UnfitFileException e = assertThrows(UnfitFileException.class, () -> SpoolFiles.readBounded(link, 100));
        assertEquals(UnfitFileException.Kind.JUNK, e.kind());
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void aHardLinkToAFileElsewhereIsJunk() throws Exception {
        Path outside = Files.writeString(dir.resolve("secret"), "not yours");
        Path link = Files.createLink(dir.resolve("item"), outside);
        UnfitFileException e = assertThrows(UnfitFileException.class, () -> SpoolFiles.readBounded(link, 100));
        assertEquals(UnfitFileException.Kind.JUNK, e.kind());
        assertTrue(e.getMessage().contains("2 names"), e.getMessage());
    }

    @Test
    void aFifoIsRefusedWithoutBlocking() throws Exception {
        Path fifo = dir.resolve("item");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo");
        // Opening a FIFO with no writer would block this thread forever: the check must come first.
        UnfitFileException e = assertThrows(UnfitFileException.class, () -> SpoolFiles.readBounded(fifo, 100));
        assertEquals(UnfitFileException.Kind.JUNK, e.kind());
        assertTrue(e.getMessage().contains("FIFO"), e.getMessage());
    }

    @Test
    void aDirectoryIsJunk() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("item"));
        UnfitFileException e = assertThrows(UnfitFileException.class, () -> SpoolFiles.readBounded(sub, 100));
        assertEquals(UnfitFileException.Kind.JUNK, e.kind());
    }

    @Test
    void aMissingFileIsNoSuchFile() {
        assertThrows(NoSuchFileException.class, () -> SpoolFiles.readBounded(dir.resolve("gone"), 100));
    }
}
