package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.HandlerOutput;
import io.leasehold.spool.AttemptOutput;
import io.leasehold.spool.AttemptOutputJson;
import io.leasehold.spool.ItemStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Junk under outputs/ never ends a bookkeeping sweep, and a linked item folder is never followed. */
class OutputsJunkTest extends StoreTestBase {

    private static AttemptOutput output(int n, String text) {
        return AttemptOutput.of(n, "exec", Instant.parse("2026-12-07T10:00:00Z"), Instant.parse("2026-12-07T10:00:01Z"),
                new HandlerOutput(1, List.of(new HandlerOutput.Part("stdout", text, 0, "tail"))));
    }

    @Test
    void aJunkFolderAmongAGoneItemsOutputsNeverEndsTheSweep() throws IOException {
        Path folder = layout.file(SpoolFolder.OUTPUTS, "gone-item");
        Files.createDirectories(folder.resolve("junk"));
        Files.writeString(folder.resolve("junk").resolve("x"), "x");
        Files.writeString(folder.resolve("1"), "{}");
        Files.setLastModifiedTime(folder, FileTime.from(clock.now().minus(Duration.ofDays(2))));
        assertDoesNotThrow(() -> store.sweepBookkeeping(clock.now().minus(Duration.ofHours(1))));
        assertDoesNotThrow(() -> store.sweepBookkeeping(clock.now().minus(Duration.ofHours(1))), "nor the next one");
        assertTrue(Files.exists(folder.resolve("junk").resolve("x")), "junk is left for the operator");
        assertTrue(Files.notExists(folder.resolve("1")), "the output itself is gone");
    }

    @Test
    void aLinkedItemFolderIsRefusedByEveryCallAndNeverFollowed() throws IOException {
        Path outside = Files.createDirectories(dir.resolveSibling("outside-" + System.nanoTime()));
        Files.write(outside.resolve("1"), AttemptOutputJson.encode(output(1, "from outside the spool")));
        Files.createSymbolicLink(layout.file(SpoolFolder.OUTPUTS, "linked"), outside);
        DirectoryOutputs outputs = new DirectoryOutputs(layout);
        assertThrows(IOException.class, () -> outputs.keep("linked", output(1, "x")));
        ItemStore.UnfitOutputException e = assertThrows(ItemStore.UnfitOutputException.class, () -> outputs.read("linked", 1));
        assertTrue(e.getMessage().contains("outputs/linked is a symbolic link") && e.getMessage().endsWith("remove it"),
                e.getMessage());
        outputs.forget("linked");
        assertTrue(Files.exists(outside.resolve("1")), "what the link names is untouched");
    }
}
