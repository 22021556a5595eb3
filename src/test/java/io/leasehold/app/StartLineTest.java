package io.leasehold.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The start's line on how a directory spool writes is quoted in the operator's docs exactly as the service says it. */
class StartLineTest {

    @Test
    void operationsDocQuotesBothFormsOfTheDirectorySpoolsStartLine() throws IOException {
        String doc = Files.readString(Path.of("docs", "operations.md"));
        for (boolean calls : new boolean[] {true, false}) {
            String line = SpoolWiring.howItWrites(Path.of("/srv/spool"), calls, calls);
            assertTrue(doc.contains("\n" + line + "\n"), "docs/operations.md does not quote the start line:\n" + line);
        }
    }
}
