package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.AttemptOutputs;
import io.leasehold.spool.AttemptOutputsContract;
import io.leasehold.spool.ItemStore;
import io.leasehold.testing.Fifo;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a spool directory, and what hostile files in the outputs' places do. */
class DirectoryOutputsTest extends AttemptOutputsContract {

    @TempDir
    Path dir;
    private SpoolLayout layout;

    @BeforeEach
    void open() throws Exception {
        layout = new SpoolLayout(dir);
        layout.createFolders();
        one = new DirectoryOutputs(layout);
        other = new DirectoryOutputs(new SpoolLayout(dir));
    }

    @Test
    void anOutputIsOneFileUnderTheItemAndNothingIsLeftInTmp() throws Exception {
        one.keep("item-1", output(1, "a"));
        one.keep("item-1", output(2, "b"));
        try (Stream<Path> files = Files.list(layout.file(SpoolFolder.OUTPUTS, "item-1"))) {
            assertEquals(List.of("1", "2"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        try (Stream<Path> files = Files.list(layout.folder(SpoolFolder.TMP))) {
            assertEquals(0, files.count(), "nothing left in tmp/");
        }
    }

    @Test
    void aSpoolMadeBeforeOutputsExistedGetsTheFolderAtTheFirstOutput() throws Exception {
        Files.delete(layout.folder(SpoolFolder.OUTPUTS));
        assertEquals(java.util.Optional.empty(), one.read("item-1", 1));
        one.forget("item-1");
        one.keep("item-1", output(1, "a"));
        assertEquals("a", stdout(other, "item-1", 1));
    }

    @Test
    void aFifoOrALinkInPlaceOfAnOutputIsRefusedUnreadAndTheNextKeepReplacesIt() throws Exception {
        Path folder = Files.createDirectories(layout.file(SpoolFolder.OUTPUTS, "odd"));
        Fifo.make(folder.resolve("1"));
        assertThrows(IOException.class, () -> one.read("odd", 1)); // would block for ever if opened
        Path outside = Files.writeString(dir.resolveSibling("outside-" + System.nanoTime()), "secret");
        Files.createSymbolicLink(folder.resolve("2"), outside);
        assertThrows(IOException.class, () -> one.read("odd", 2));
        one.keep("odd", output(2, "ours"));
        assertEquals("ours", stdout(other, "odd", 2));
        assertEquals("secret", Files.readString(outside), "the link's target untouched");
        one.forget("odd");
        assertTrue(Files.exists(outside), "a purge removes links, never what they name");
        Files.delete(outside);
    }

    @Test
    void aFileThatIsNoOutputIsRefusedNamingTheFix() throws Exception {
        Path folder = Files.createDirectories(layout.file(SpoolFolder.OUTPUTS, "junk"));
        Files.writeString(folder.resolve("1"), "hello");
        ItemStore.UnfitOutputException e = assertThrows(ItemStore.UnfitOutputException.class, () -> one.read("junk", 1));
        assertTrue(e.getMessage().contains("outputs/junk/1") && e.getMessage().contains("remove it"), e.getMessage());
    }

    @Test
    void aFileInPlaceOfTheItemsFolderRefusesTheOutputAndIsLeftAlone() throws Exception {
        Files.writeString(layout.file(SpoolFolder.OUTPUTS, "blocked"), "not a folder");
        IOException e = assertThrows(IOException.class, () -> one.keep("blocked", output(1, "a")));
        assertTrue(e.getMessage().contains("outputs/blocked is not a directory"), e.getMessage());
        one.forget("blocked");
        assertEquals("not a folder", Files.readString(layout.file(SpoolFolder.OUTPUTS, "blocked")));
    }

    /** A sparse 1 GiB file, far above any output, is refused by its size before a byte is read. */
    @Test
    void aHugeFileInPlaceOfAnOutputIsRefusedUnread() throws Exception {
        Path folder = Files.createDirectories(layout.file(SpoolFolder.OUTPUTS, "huge"));
        try (RandomAccessFile file = new RandomAccessFile(folder.resolve("1").toFile(), "rw")) {
            file.setLength(1L << 30);
        }
        ItemStore.UnfitOutputException e = assertThrows(ItemStore.UnfitOutputException.class, () -> one.read("huge", 1));
        assertTrue(e.getMessage().contains("outputs/huge/1") && e.getMessage().contains("remove it"), e.getMessage());
        one.keep("huge", output(1, "ours"));
        assertEquals("ours", stdout(other, "huge", 1), "the next keep replaces it");
    }

    /**
     * Two holders keeping the first output of an item at the same instant: one makes its folder, the other finds
     * it made, never "not a directory" (the full suite once saw a look that found nothing, then something).
     */
    @Test
    void twoFirstOutputsOfAnItemAtOnceAreBothKept() throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 300; i++) {
                String id = "fresh-" + i;
                CyclicBarrier together = new CyclicBarrier(2);
                List<Future<?>> both = new ArrayList<>();
                for (AttemptOutputs writer : List.of(one, other)) {
                    both.add(two.submit(() -> {
                        together.await();
                        writer.keep(id, output(1, "first"));
                        return null;
                    }));
                }
                for (Future<?> f : both) {
                    f.get(10, TimeUnit.SECONDS);
                }
            }
        } finally {
            two.shutdownNow();
        }
        assertEquals("first", stdout(other, "fresh-299", 1));
    }
}
