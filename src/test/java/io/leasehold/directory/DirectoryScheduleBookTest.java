package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.leasehold.spool.ScheduleBookContract;
import io.leasehold.testing.Fifo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a spool directory, and what hostile files in schedules/ do to it. */
class DirectoryScheduleBookTest extends ScheduleBookContract {

    @TempDir
    Path dir;
    private SpoolLayout layout;

    @BeforeEach
    void open() throws Exception {
        layout = new SpoolLayout(dir);
        layout.createFolders();
        book = new DirectoryScheduleBook(layout);
        other = new DirectoryScheduleBook(layout);
    }

    @Test
    void aMarkIsOneFileNamedByTheScheduleAndItsFireTimeAndTheOldOnesGo() throws Exception {
        book.advance("nightly", mark(T, 1));
        book.advance("nightly", mark(T.plusSeconds(86_400), 2));
        try (Stream<Path> files = Files.list(layout.folder(SpoolFolder.SCHEDULES))) {
            assertEquals(List.of("nightly~20261206T020000Z"), files.map(p -> p.getFileName().toString()).toList());
        }
        try (Stream<Path> files = Files.list(layout.folder(SpoolFolder.TMP))) {
            assertEquals(0, files.count(), "nothing left in tmp/");
        }
    }

    @Test
    void aMarkWhoseFileIsALinkOrAFifoStillCountsByItsNameAndIsNeverRead() throws Exception {
        Path outside = Files.writeString(dir.resolveSibling("outside-" + System.nanoTime()), "fireTime=secret");
        Files.createSymbolicLink(layout.file(SpoolFolder.SCHEDULES, "linked~20261205T020000Z"), outside);
        Fifo.make(layout.file(SpoolFolder.SCHEDULES, "piped~20261205T020000Z"));
        for (String name : List.of("linked", "piped")) {
            var mark = book.mark(name).orElseThrow();
            assertEquals(T, mark.through());
            assertNull(mark.lastFired());
        }
        book.advance("piped", mark(T.plusSeconds(1), 3)); // moved past: the FIFO goes, unopened
        assertEquals(3, book.mark("piped").orElseThrow().lastFired().epoch());
        Files.delete(outside);
    }

    @Test
    void namesInSchedulesThatAreNoMarkAreLeftAlone() throws Exception {
        Files.writeString(layout.file(SpoolFolder.SCHEDULES, "nightly~garbage"), "x");
        Files.writeString(layout.file(SpoolFolder.SCHEDULES, "nightly-other~20301205T020000Z"), "x");
        book.advance("nightly", mark(T, 1));
        assertEquals(T, book.mark("nightly").orElseThrow().through());
        assertEquals(true, Files.exists(layout.file(SpoolFolder.SCHEDULES, "nightly~garbage")));
    }
}
