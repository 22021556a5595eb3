package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.SpoolCounts;
import io.leasehold.testing.DrivenClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What telling parked claims from held ones costs the census: a recount of claimed/ holding {@link #CLAIMS}
 * claims parked until a scheduled time (each with its record), against the same number of held claims at
 * their first attempt (no record: the baseline, what a recount cost before parked claims were counted
 * apart), in the same run, interleaved. A fresh store's first recount reads every parked claim's record;
 * later ones read none (a parked claim is never renamed). Medians of {@link #RUNS} with min–max, and the
 * load average. Run with {@code ./mvnw -B verify -Pbenchmark -Dit.test=RecountBenchmark}.
 */
@Tag("benchmark")
class RecountBenchmark {

    static final int CLAIMS = 20_000;
    static final int RUNS = 5;
    private static final LeaseTerms TERMS = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));

    @Test
    void recountsOfParkedClaimsAgainstHeldOnes() throws IOException {
        Path root = Path.of("target", "bench-recount").toAbsolutePath();
        DrivenClock clock = new DrivenClock();
        SpoolLayout parked = plant(root.resolve("parked"), clock, true);
        SpoolLayout held = plant(root.resolve("held"), clock, false);
        String load = load();
        double[][] ms = new double[4][RUNS]; // first and later recount, parked and held
        for (int run = 0; run < RUNS; run++) {
            time(parked, clock, ms[0], ms[1], run, new SpoolCounts(0, 0, CLAIMS, 0, 0, 0, 0));
            time(held, clock, ms[2], ms[3], run, new SpoolCounts(0, CLAIMS, 0, 0, 0, 0, 0));
        }
        System.out.printf(Locale.ROOT, "%n# recount benchmark: %,d claims in claimed/, %d cores, Java %s, load %s -> %s%n",
                CLAIMS, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), load, load());
        System.out.println("| claims | first recount of a fresh store | a later recount |");
        System.out.println("|---|---|---|");
        System.out.println("| scheduled (parked, each with its record) | " + spread(ms[0]) + " | " + spread(ms[1]) + " |");
        System.out.println("| held at their first attempt (no record: the baseline) | " + spread(ms[2]) + " | "
                + spread(ms[3]) + " |");
    }

    /** A fresh store's first recount and one after it, each checked against what was planted. */
    private static void time(SpoolLayout layout, DrivenClock clock, double[] first, double[] later, int run,
            SpoolCounts expected) throws IOException {
        PosixSpool spool = new PosixSpool(layout, new SpoolAnomalies(), clock, 1 << 20, HolderTag.named("bench"));
        try (PosixItemStore store = new PosixItemStore(layout, spool, TERMS, clock)) {
            long t0 = System.nanoTime();
            store.recount();
            long t1 = System.nanoTime();
            store.recount();
            long t2 = System.nanoTime();
            first[run] = (t1 - t0) / 1e6;
            later[run] = (t2 - t1) / 1e6;
            assertEquals(expected, store.countsNow());
        }
    }

    private static SpoolLayout plant(Path dir, DrivenClock clock, boolean parked) throws IOException {
        SpoolLayout layout = new SpoolLayout(dir);
        if (Files.exists(dir)) {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(dir.getParent());
        layout.createFolders();
        PosixSpool spool = new PosixSpool(layout, new SpoolAnomalies(), clock, 1 << 20, HolderTag.named("plant"));
        AttemptRecord scheduled = new AttemptRecord(AttemptRecord.Kind.SCHEDULED, 0, "");
        for (int i = 0; i < CLAIMS; i++) {
            String id = "item-" + i;
            Generation generation = parked ? Generation.first() : Generation.at(1, HolderTag.named("plant"));
            Files.write(layout.claimFile(new ClaimName(id, generation, clock.now().plusSeconds(3600))), new byte[] {1});
            if (parked) {
                spool.writeRecord(id, generation, scheduled);
            }
        }
        return layout;
    }

    private static String spread(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.0f ms (%.0f–%.0f)", sorted[sorted.length / 2], sorted[0],
                sorted[sorted.length - 1]);
    }

    private static String load() throws IOException {
        String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
        return parts[0] + " " + parts[1] + " " + parts[2];
    }
}
