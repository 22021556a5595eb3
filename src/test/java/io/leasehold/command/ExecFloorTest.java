package io.leasehold.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where {@code lease exec} may keep the epoch floor: only in the service's spool, never in one of its own making. */
class ExecFloorTest {

    @TempDir
    Path dir;

    private List<Path> made() throws IOException {
        try (var files = Files.walk(dir)) {
            return files.filter(p -> !p.equals(dir)).toList();
        }
    }

    @Test
    void aSetDirectoryThatExistsHoldsTheFloor() throws IOException {
        Path spool = Files.createDirectories(dir.resolve("spool"));
        ExecFloor floor = new ExecFloor(spool, true);
        assertEquals(0, floor.highest());
        floor.raise(41);
        assertEquals(41, floor.highest());
        assertEquals("41", Files.readString(spool.resolve("lease/epoch-floor")).strip());
    }

    @Test
    void aSetDirectoryThatDoesNotExistIsRefusedNamingTheKeyAndNotMade() throws IOException {
        ExecFloor floor = new ExecFloor(dir.resolve("typo"), true);
        for (IOException e : List.of(assertThrows(IOException.class, floor::highest),
                assertThrows(IOException.class, () -> floor.raise(1)))) {
            assertTrue(e.getMessage().startsWith("leasehold.spool.dir (" + dir.resolve("typo") + ") is not a directory"),
                    e.getMessage());
        }
        assertEquals(List.of(), made());
    }

    @Test
    void theDefaultCountsOnlyWhereTheServiceLeftItsFloorFolder() throws IOException {
        ExecFloor floor = new ExecFloor(dir.resolve("spool"), false);
        IOException e = assertThrows(IOException.class, () -> floor.raise(5));
        assertTrue(e.getMessage().startsWith("leasehold.spool.dir is not set"), e.getMessage());
        assertEquals(List.of(), made(), "no ./spool made where the command runs");
        Files.createDirectories(dir.resolve("spool"));
        assertThrows(IOException.class, floor::highest, "a spool folder alone is no floor folder");
        Files.createDirectories(dir.resolve("spool/lease"));
        floor.raise(5);
        assertEquals(5, floor.highest());
    }

    @Test
    void aFloorThatCannotBeReadNamesTheKey() throws IOException {
        Path spool = Files.createDirectories(dir.resolve("spool/lease")).getParent();
        Files.writeString(spool.resolve("lease/epoch-floor"), "garbage\n");
        IOException e = assertThrows(IOException.class, () -> new ExecFloor(spool, true).highest());
        assertTrue(e.getMessage().startsWith("leasehold.spool.dir (" + spool + "): the epoch floor"), e.getMessage());
    }
}
