package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Fifo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolEpochFloorTest {

    @TempDir
    Path spool;

    @Test
    void aNewSpoolHasFloorZeroAndReadingCreatesNothing() throws IOException {
        assertEquals(0, new SpoolEpochFloor(spool).highest());
        assertFalse(Files.exists(spool.resolve("lease")));
    }

    @Test
    void raisingWritesTheNumberUnderLeaseAndKeepsIt() throws IOException {
        SpoolEpochFloor floor = new SpoolEpochFloor(spool);
        floor.raise(1001);
        assertEquals(spool.resolve("lease/epoch-floor").toAbsolutePath(), floor.file());
        assertEquals("1001\n", Files.readString(floor.file()));
        assertEquals(1001, new SpoolEpochFloor(spool).highest(), "another instance (or a restart) reads it");
        try (Stream<Path> left = Files.list(spool.resolve("lease"))) {
            assertEquals(List.of("epoch-floor", "epoch-floor.lock"), left.map(p -> p.getFileName().toString())
                    .sorted().toList(), "no temp file left behind");
        }
    }

    @Test
    void itNeverGoesDown() throws IOException {
        SpoolEpochFloor floor = new SpoolEpochFloor(spool);
        floor.raise(40);
        floor.raise(7);
        floor.raise(40);
        assertEquals(40, floor.highest());
        floor.raise(41);
        assertEquals(41, floor.highest());
        assertThrows(IllegalArgumentException.class, () -> floor.raise(-1));
    }

    @Test
    void garbageIsAnErrorNamingTheFileAndIsNeverOverwritten() throws IOException {
        SpoolEpochFloor floor = new SpoolEpochFloor(spool);
        Files.createDirectories(floor.file().getParent());
        for (String bad : List.of("twelve", "-3", "", "12 13")) {
            Files.writeString(floor.file(), bad);
            IOException e = assertThrows(IOException.class, floor::highest, bad);
            assertTrue(e.getMessage().contains(floor.file().toString()) && e.getMessage().contains("'" + bad.trim()
                    + "', not an epoch"), e.getMessage());
            assertThrows(IOException.class, () -> floor.raise(99), "raise reads before it writes");
            assertEquals(bad, Files.readString(floor.file()), "left for a person to look at");
        }
    }

    @Test
    void anUnreadableFloorIsAnError() throws IOException {
        SpoolEpochFloor floor = new SpoolEpochFloor(spool);
        Files.createDirectories(floor.file());
        IOException e = assertThrows(IOException.class, floor::highest);
        assertTrue(e.getMessage().contains("cannot be read"), e.getMessage());
    }

    @Test
    void aFloorThatIsAFifoOrASymlinkIsAnErrorAtOnceNeverAHangNorFollowed() throws Exception {
        SpoolEpochFloor floor = new SpoolEpochFloor(spool);
        Files.createDirectories(floor.file().getParent());
        Fifo.make(floor.file());
        IOException fifo = assertThrows(IOException.class, floor::highest, "a FIFO with no writer would block the read");
        assertTrue(fifo.getMessage().contains("FIFO"), fifo.getMessage());

        Files.delete(floor.file());
        Path elsewhere = Files.writeString(spool.resolve("elsewhere"), "7\n");
        Files.createSymbolicLink(floor.file(), elsewhere);
        IOException link = assertThrows(IOException.class, floor::highest);
        assertTrue(link.getMessage().contains("symbolic link"), link.getMessage());
    }

    @Test
    void racingRaisesFromTwoInstancesKeepTheHighest() throws Exception {
        SpoolEpochFloor a = new SpoolEpochFloor(spool);
        SpoolEpochFloor b = new SpoolEpochFloor(spool);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                SpoolEpochFloor floor = t % 2 == 0 ? a : b;
                int offset = t;
                runs.add(pool.submit(() -> {
                    // Interleaved ascending and descending values, so a lost race would show a lower floor.
                    for (int i = 0; i < 50; i++) {
                        floor.raise(offset % 2 == 0 ? i * 4L + offset : (49 - i) * 4L + offset);
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(49 * 4 + 3, a.highest());
    }
}
