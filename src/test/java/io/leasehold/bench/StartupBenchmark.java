package io.leasehold.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Start-up time and memory of the JVM build, as a container platform sees them: from the launch of
 * {@code java -jar} to a ready answer on /q/health/ready, and RSS once 10,000 items were drained.
 * A benchmark: it prints figures and asserts only that the work was done.
 */
@Tag("benchmark")
class StartupBenchmark {

    static final int ROUNDS = 5;
    static final int ITEMS = 10_000;

    @Test
    void timeToReadyAndMemoryAfterDraining10kItems() throws IOException {
        List<Long> readyMs = new ArrayList<>();
        double rssAfter = 0;
        double rssReady = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Path dir = Files.createTempDirectory("leasehold-startup-");
            BenchSpool spool = new BenchSpool(dir.resolve("spool"));
            long launched = System.nanoTime();
            try (BenchService service = BenchService.start(dir.resolve("spool"), 4, true, dir.resolve("log"))) {
                service.awaitReady();
                readyMs.add((System.nanoTime() - launched) / 1_000_000);
                if (round == ROUNDS - 1) {
                    rssReady = service.rssMiB();
                    spool.fill("s", ITEMS);
                    Await.until("10,000 items done", Duration.ofMinutes(3),
                            () -> count(dir.resolve("spool/done")) == ITEMS);
                    rssAfter = service.rssMiB();
                }
            }
        }
        readyMs.sort(Long::compare);
        String figures = String.format(Locale.ROOT,
                "JVM start to ready, %d launches: min %d ms, median %d ms, max %d ms; RSS at ready %.0f MiB, "
                        + "after draining %,d items %.0f MiB (-Xmx256m)",
                ROUNDS, readyMs.get(0), readyMs.get(ROUNDS / 2), readyMs.get(ROUNDS - 1), rssReady, ITEMS, rssAfter);
        System.out.println(figures);
        Files.writeString(Path.of("target", "startup-benchmark.md"), figures + "\n");
        assertEquals(ROUNDS, readyMs.size());
    }

    private static long count(Path folder) {
        try (var entries = Files.list(folder)) {
            return entries.count();
        } catch (IOException e) {
            return -1;
        }
    }
}
