package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rollback in docs/operations.md ("Upgrading a fleet"), run as written: every link reservation becomes a
 * plain file naming the same inode, which older builds read, and nothing else in ids/ is left behind.
 */
class RollbackSnippetTest extends StoreTestBase {

    @Test
    void theDocumentedRollbackTurnsEveryLinkReservationIntoAPlainFileNamingTheSameItem() throws Exception {
        List<String> ids = List.of("a", "b.2");
        List<Long> inodes = new java.util.ArrayList<>();
        for (String id : ids) {
            inodes.add(ino(Files.writeString(layout.file(SpoolFolder.PENDING, id), "payload")));
            assertTrue(spool.claim(id, clock.now()).isPresent());
            assertTrue(Files.isSymbolicLink(layout.file(SpoolFolder.IDS, id)));
        }

        String doc = Files.readString(Path.of("docs", "operations.md"), StandardCharsets.UTF_8);
        String rollback = doc.substring(doc.indexOf("**To roll back**"));
        int open = rollback.indexOf("```\n") + 4;
        String snippet = rollback.substring(open, rollback.indexOf("```", open)).stripIndent();
        ProcessBuilder run = new ProcessBuilder("bash", "-c", snippet).redirectErrorStream(true);
        run.environment().put("SPOOL", dir.toString());
        Process bash = run.start();
        bash.getOutputStream().close();
        assertTrue(bash.waitFor(20, TimeUnit.SECONDS), "the snippet ends");
        String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, bash.exitValue(), snippet + "\n" + output);

        for (int i = 0; i < ids.size(); i++) {
            Path reservation = layout.file(SpoolFolder.IDS, ids.get(i));
            assertTrue(Files.isRegularFile(reservation, LinkOption.NOFOLLOW_LINKS), ids.get(i) + " is a plain file now");
            assertEquals(inodes.get(i) + "\n", Files.readString(reservation), "naming the same item");
        }
        try (var left = Files.list(layout.folder(SpoolFolder.IDS))) {
            assertEquals(ids, left.map(p -> p.getFileName().toString()).sorted().toList(), "no ~tmp file left");
        }
    }
}
