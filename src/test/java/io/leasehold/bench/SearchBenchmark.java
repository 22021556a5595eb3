package io.leasehold.bench;

import io.leasehold.core.Generation;
import io.leasehold.spool.ItemListing;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * GET /items over 100,000 failed items on a spool directory (issue 30): the first page, a search by an id's
 * start, by a reason's words (1 % of the items say "quota exceeded"), a search that matches nothing (every
 * reason read), and the last page by its cursor; each against the bare readdir + stat of failed/ in the same
 * run, the least any listing must do. Medians of {@link #RUNS} with min–max, the service's answers timed
 * from this JVM. Run with {@code ./mvnw -B verify -Pbenchmark -Dit.test=SearchBenchmark}.
 */
@Tag("benchmark")
class SearchBenchmark {

    static final int ITEMS = 100_000;
    static final int RUNS = 5;
    static final Instant START = Instant.parse("2026-12-01T00:00:00Z");
    static final Path WORK = Path.of("target", "bench-search").toAbsolutePath();
    static final Figures FIGURES = new Figures("leasehold search benchmark");
    static BenchSpool spool;
    static BenchService service;

    @BeforeAll
    static void start() throws IOException {
        BenchSpool.fresh(WORK);
        spool = new BenchSpool(WORK.resolve("service"));
        Path failed = spool.root.resolve("failed");
        Path reasons = Files.createDirectories(spool.root.resolve("reasons"));
        Instant t = START;
        String generation = Generation.first().toString();
        for (int i = 0; i < ITEMS; i++) { // as an older spool keeps failed items: the payload, and reasons/<id>
            String id = String.format(Locale.ROOT, "f-%06d", i);
            Files.setLastModifiedTime(Files.write(failed.resolve(id), BenchSpool.payload(i)), FileTime.from(t.plusMillis(i)));
            Files.writeString(reasons.resolve(id), generation + " 0\n" + (i % 100 == 7 ? "quota exceeded for tenant " + i
                    : "exit 1: connection refused"));
        }
        service = BenchService.start(spool.root, 4, false, WORK.resolve("service.log"));
        service.awaitReady();
    }

    @Test
    void searchesOverAHundredThousandFailedItems() throws Exception {
        String last = lastCursor();
        String[][] asks = {
            {"first page of 100", "/items?state=failed&limit=100"},
            {"q = an id's start (100 match)", "/items?state=failed&limit=100&q=f-0999"},
            {"q = a reason's words (1,000 match, a page of 100)", "/items?state=failed&limit=100&q=QUOTA"},
            {"q matching nothing (every reason read)", "/items?state=failed&limit=100&q=no-such-text"},
            {"the last page, by its cursor", "/items?state=failed&limit=100&after=" + URLEncoder.encode(last, StandardCharsets.UTF_8)},
        };
        double[] bare = new double[RUNS];
        double[][] timed = new double[asks.length][RUNS];
        for (int a = 0; a < asks.length; a++) {
            service.timedGet(asks[a][1]); // warm-up, not timed
        }
        for (int run = 0; run < RUNS; run++) {
            bare[run] = bareListing();
            for (int a = 0; a < asks.length; a++) {
                timed[a][run] = service.timedGet(asks[a][1]);
            }
        }
        row("bare", "readdir + stat of failed/", bare);
        for (int a = 0; a < asks.length; a++) {
            row("service", "GET " + asks[a][0], timed[a]);
        }
        FIGURES.note(String.format(Locale.ROOT, "%,d failed items; the machine's load at the end: %s", ITEMS,
                Files.readString(Path.of("/proc/loadavg")).trim()));
    }

    /** The cursor the next-to-last page ends with: its last item's time and id, as the Link header gives it. */
    private static String lastCursor() {
        int i = ITEMS - 101;
        String cursor = new ItemListing.Position(START.plusMillis(i), String.format(Locale.ROOT, "f-%06d", i)).cursor();
        var answer = service.get("/items?state=failed&limit=1&after=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
        if (!answer.body().contains("\"f-" + String.format(Locale.ROOT, "%06d", i + 1) + "\"")) {
            throw new AssertionError("the cursor lands elsewhere: " + answer.body());
        }
        return cursor;
    }

    /** Milliseconds of one readdir of failed/ with a stat of every entry. */
    private static double bareListing() throws IOException {
        long start = System.nanoTime();
        long seen = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(spool.root.resolve("failed"))) {
            for (Path entry : entries) {
                if (Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
                    seen++;
                }
            }
        }
        if (seen != ITEMS) {
            throw new AssertionError("listed " + seen);
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static void row(String part, String measure, double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        FIGURES.add(part, measure, String.format(Locale.ROOT, "%.0f ms", sorted[RUNS / 2]),
                String.format(Locale.ROOT, "min-max %.0f-%.0f ms", sorted[0], sorted[RUNS - 1]));
    }

    @AfterAll
    static void report() throws IOException {
        if (service != null) {
            service.close();
        }
        String table = FIGURES.render();
        System.out.println("\n" + table);
        Files.writeString(Path.of("target", "benchmark-search.md"), table, StandardCharsets.UTF_8);
        spool.delete();
    }
}
