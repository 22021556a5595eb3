package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.HandlerOutput;
import io.leasehold.spool.AttemptOutput;
import io.leasehold.testing.Tmpfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * On a real full filesystem (a small tmpfs filled to ENOSPC) an output is refused whole: nothing half-written
 * is left in tmp/ or under the item, the outputs kept before still read, and the next output once there is
 * room is kept.
 */
class OutputsOnFullDiskTest {

    private static AttemptOutput output(int attempt, String text) {
        Instant at = Instant.parse("2026-12-07T10:00:00Z").plusSeconds(attempt);
        return AttemptOutput.of(attempt, "exec", at, at.plusSeconds(1),
                new HandlerOutput(0, List.of(new HandlerOutput.Part("stdout", text, text.length(), "tail"))));
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFullDiskRefusesAnOutputWholeAndKeepsTheEarlierOnes() throws IOException {
        try (Tmpfs tmpfs = Tmpfs.mount(Path.of("target/outputs-full-tmpfs"), "1m")) {
            SpoolLayout layout = new SpoolLayout(tmpfs.dir().resolve("spool"));
            layout.createFolders();
            DirectoryOutputs outputs = new DirectoryOutputs(layout);
            outputs.keep("full-1", output(1, "first"));
            Path filler = tmpfs.dir().resolve("filler");
            tmpfs.fill(filler);

            String big = "x".repeat(HandlerOutput.MAX_PART_BYTES); // more than a page: refused for want of room
            IOException refused = assertThrows(IOException.class, () -> outputs.keep("full-1", output(2, big)));
            assertTrue(String.valueOf(refused.getMessage()).contains("No space left on device"), refused.toString());
            assertEquals(List.of(), names(layout.folder(SpoolFolder.TMP)), "nothing half-written left in tmp/");
            assertEquals(List.of("1"), names(layout.file(SpoolFolder.OUTPUTS, "full-1")));
            assertEquals("first", outputs.read("full-1", 1).orElseThrow().parts().get(0).text());

            Files.delete(filler);
            outputs.keep("full-1", output(2, big));
            assertEquals(big, outputs.read("full-1", 2).orElseThrow().parts().get(0).text(), "kept once there is room");
        }
    }
}
