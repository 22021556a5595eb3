package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.leasehold.spool.StagedBatch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CPU a batch body's reading costs, without the spool: {@link NdjsonBatch} (each line decoded as strict
 * UTF-8) against the bare loop of Jackson's byte parser over the same lines, reading the same strings, the least
 * any reading must do (and how lines were read before strict decoding). A batch of 1,000 lines of 200 bytes and
 * one line of 1 MiB; medians of 9 interleaved rounds with min-max. Run with
 * {@code ./mvnw -B verify -Pbenchmark -Dit.test=BatchParsingBenchmark}.
 */
@Tag("benchmark")
class BatchParsingBenchmark {

    private static final JsonFactory JSON = new JsonFactory();
    private static final int ROUNDS = 9;

    /** Takes every payload and item, keeps nothing: only the reading is timed. */
    private static final class Discard implements StagedBatch {
        int items;

        @Override
        public OutputStream payload(int line, String id) {
            return OutputStream.nullOutputStream();
        }

        @Override
        public void item(int line, String id) {
            items++;
        }

        @Override
        public List<String> commit() {
            return List.of();
        }

        @Override
        public void close() {
        }
    }

    private static byte[] body(int lines, int payloadChars) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines; i++) {
            out.writeBytes(("{\"id\":\"order-" + i + "\",\"payload\":\"" + "\u00e9".repeat(payloadChars / 10)
                    + "x".repeat(payloadChars - payloadChars / 10) + "\"}\n").getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static int ours(byte[] body) throws IOException {
        Discard batch = new Discard();
        new NdjsonBatch(2L << 20, 10_000).read(new ByteArrayInputStream(body), batch);
        return batch.items;
    }

    /** Jackson's byte parser over each line (split at '\n'), reading every string. */
    private static int bare(byte[] body) throws IOException {
        int items = 0;
        int start = 0;
        for (int i = 0; i < body.length; i++) {
            if (body[i] == '\n') {
                try (JsonParser parser = JSON.createParser(body, start, i - start)) {
                    for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
                        if (t == JsonToken.VALUE_STRING) {
                            parser.getText();
                        }
                    }
                }
                items++;
                start = i + 1;
            }
        }
        return items;
    }

    private static String timeBoth(String what, byte[] body, int repeats, int lines) throws IOException {
        double[] ours = new double[ROUNDS];
        double[] bare = new double[ROUNDS];
        for (int warm = 0; warm < repeats; warm++) {
            assertEquals(lines, ours(body));
            assertEquals(lines, bare(body));
        }
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = System.nanoTime();
            for (int r = 0; r < repeats; r++) {
                ours(body);
            }
            long t1 = System.nanoTime();
            for (int r = 0; r < repeats; r++) {
                bare(body);
            }
            long t2 = System.nanoTime();
            ours[round] = (t1 - t0) / 1e6 / repeats;
            bare[round] = (t2 - t1) / 1e6 / repeats;
        }
        return String.format(Locale.ROOT, "%s: NdjsonBatch %s, bare byte parser %s (ms per body)", what,
                spread(ours), spread(bare));
    }

    private static String spread(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1]);
    }

    @Test
    void readingABatchAgainstTheBareParser() throws IOException {
        String load = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        System.out.println("leasehold batch parsing benchmark (load at start " + load + ")");
        System.out.println(timeBoth("1,000 lines of 200 bytes", body(1000, 180), 100, 1000));
        System.out.println(timeBoth("one line of 1 MiB", body(1, 1 << 20), 50, 1));
    }
}
