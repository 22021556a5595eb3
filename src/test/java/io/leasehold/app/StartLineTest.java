package io.leasehold.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The start's line on how a directory spool writes is quoted in the operator's docs exactly as the service says it. */
class StartLineTest {

    @Test
    void operationsDocQuotesEveryFormOfTheDirectorySpoolsStartLine() throws IOException {
        String doc = Files.readString(Path.of("docs", "operations.md"));
        for (boolean[] ways : new boolean[][] {{true, true}, {false, false}, {true, false}}) {
            String line = SpoolWiring.howItWrites(Path.of("/srv/spool"), ways[0], ways[1]);
            assertTrue(doc.contains("\n" + line + "\n"), "docs/operations.md does not quote the start line:\n" + line);
        }
    }
}
