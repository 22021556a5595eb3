package io.leasehold.cli;

import static io.leasehold.cli.Said.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;




import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code items list --search --after}: the command line pages as GET /items does, and says how to get the next page. */
class ItemsListPagingTest {

    @org.junit.jupiter.api.extension.RegisterExtension
    final CliProperties properties = new CliProperties();


    private static final Pattern MORE = Pattern.compile("more: java -jar quarkus-run.jar items list --state pending --limit 2(?: --search '[^']*')? --after (\\S+)");

    @TempDir
    Path dir;

    @BeforeEach
    void spool() throws Exception {
        SpoolLayout layout = new SpoolLayout(dir.resolve("spool"));
        layout.createFolders();
        System.setProperty("leasehold.spool.dir", layout.root().toString());
        Instant t = Instant.parse("2026-12-07T10:00:00Z");
        for (String id : List.of("order-1", "order-2", "other-3", "order-4", "order-5")) {
            Path f = Files.writeString(layout.file(SpoolFolder.PENDING, id), "p");
            Files.setLastModifiedTime(f, FileTime.from(t));
            t = t.plusSeconds(1);
        }
    }

    @AfterEach
    void clear() {
        System.clearProperty("leasehold.spool.dir");
    }


    private static List<String> ids(String table) {
        return table.lines().skip(1).filter(l -> !l.startsWith("more:")).map(l -> l.split(" +")[0]).toList();
    }

    @Test
    void eachPageEndsWithTheAfterToGiveAndTheLastWithNone() {
        List<String> seen = new ArrayList<>();
        List<String> args = new ArrayList<>(List.of("items", "list", "--limit", "2"));
        for (int pages = 1; ; pages++) {
            Said page = run(args.toArray(String[]::new));
            assertEquals(0, page.status(), page.err());
            seen.addAll(ids(page.out()));
            Matcher more = MORE.matcher(page.out().lines().reduce((a, b) -> b).orElse(""));
            if (!more.matches()) {
                assertEquals(3, pages, page.out());
                break;
            }
            args = new ArrayList<>(List.of("items", "list", "--limit", "2", "--after", more.group(1)));
        }
        assertEquals(List.of("order-1", "order-2", "other-3", "order-4", "order-5"), seen);
    }

    @Test
    void searchKeepsToMatchingIdsAndJsonSaysTheNextPageOnStderr() {
        Said json = run("items", "list", "--limit", "2", "--search", "order", "--json");
        assertEquals(0, json.status(), json.err());
        assertTrue(json.out().startsWith("[{\"id\":\"order-1\"") && json.out().contains("\"id\":\"order-2\"")
                && !json.out().contains("more:"), json.out());
        Matcher more = MORE.matcher(json.err().strip());
        assertTrue(more.matches(), json.err());
        Said rest = run("items", "list", "--limit", "2", "--search", "order", "--after", more.group(1));
        assertEquals(List.of("order-4", "order-5"), ids(rest.out()));
        assertTrue(!rest.out().contains("more:"), rest.out());
    }

    @Test
    void aCursorNoPageGaveIsAUsageErrorNamingAfter() {
        Said bad = run("items", "list", "--after", "nonsense");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--after must be the cursor a page ended with"), bad.err());
    }
}
