package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spool's folders must be directories of their own: a link in a folder's place would take every
 * move, purge and enqueue somewhere else, and to another place on another machine.
 */
class SpoolLayoutTest {

    @TempDir
    Path dir;

    @Test
    void aFolderThatIsASymbolicLinkIsRefusedAndNothingIsMadeThroughIt() throws IOException {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path root = Files.createDirectory(dir.resolve("spool"));
        Files.createSymbolicLink(root.resolve("done"), elsewhere);
        SpoolLayout layout = new SpoolLayout(root);
        IOException refused = assertThrows(IOException.class, layout::createFolders);
        assertTrue(refused.getMessage().contains("symbolic link") && refused.getMessage().contains("done"),
                refused.getMessage());
        assertFalse(layout.isUsable(), "a linked folder is not usable");
        try (var inside = Files.list(elsewhere)) {
            assertTrue(inside.findAny().isEmpty(), "nothing was made in the link's target");
        }
    }

    @Test
    void aFileInAFoldersPlaceIsRefused() throws IOException {
        Path root = Files.createDirectory(dir.resolve("spool"));
        Files.writeString(root.resolve("pending"), "not a folder");
        assertThrows(NotDirectoryException.class, new SpoolLayout(root)::createFolders);
    }

    @Test
    void theRootMayBeALinkAndItsFoldersAreMadeInItsTarget() throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        SpoolLayout layout = new SpoolLayout(link);
        layout.createFolders();
        assertTrue(layout.isUsable());
        assertTrue(Files.isDirectory(real.resolve("pending")), "made in the link's target");
    }

    @Test
    void aSpoolDirectoryWhoseParentIsMissingIsRefusedAndNothingIsMade() {
        Path root = dir.resolve("mnt").resolve("shared").resolve("spool");
        IOException refused = assertThrows(IOException.class, new SpoolLayout(root)::createFolders);
        assertTrue(refused.getMessage().contains("its parent " + dir.resolve("mnt").resolve("shared") + " does not exist"),
                refused.getMessage());
        assertFalse(Files.exists(dir.resolve("mnt")), "no parent was made");
    }

    @Test
    void theSpoolDirectoryItselfIsMadeWhenItsParentExists() throws IOException {
        SpoolLayout layout = new SpoolLayout(dir.resolve("spool"));
        layout.createFolders();
        assertTrue(layout.isUsable());
    }

    @Test
    void aParentThatIsAFileIsRefusedAsNotADirectory() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");
        IOException refused = assertThrows(IOException.class, new SpoolLayout(file.resolve("spool"))::createFolders);
        assertTrue(refused.getMessage().contains("its parent " + file + " is not a directory"), refused.getMessage());
    }
}
