package io.leasehold.core;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What an attempt showed besides its outcome, for an operator reading why it went as it did: an {@code exec}
 * child's stdout and stderr tails and exit status, an {@code http} answer's status and the start of its body.
 * Bounded, so that keeping it for every attempt costs a few KiB at most.
 *
 * @param status the exit status or HTTP status; null when there was none (the attempt was cut short)
 * @param parts at most {@link #MAX_PARTS}, each cut to {@link #MAX_PART_BYTES}
 */
public record HandlerOutput(Integer status, List<Part> parts) {

    public static final int MAX_PART_BYTES = 4096;
    public static final int MAX_PARTS = 4;

    public HandlerOutput {
        parts = parts == null ? List.of() : List.copyOf(parts.subList(0, Math.min(parts.size(), MAX_PARTS)));
    }

    /** Whether it shows nothing: no status and no text. */
    public boolean blank() {
        return status == null && parts.stream().allMatch(p -> p.text().isEmpty());
    }

    /**
     * One stream or body: what was kept of it and how much there was.
     *
     * @param name {@code stdout}, {@code stderr}, {@code body}: a lower-case word
     * @param text the kept bytes read as UTF-8 (a malformed byte shows as U+FFFD), at most {@link #MAX_PART_BYTES} bytes
     *     of UTF-8
     * @param bytes how many bytes the stream or body had in all
     * @param kept {@code tail} (its last bytes) or {@code start} (its first)
     */
    public record Part(String name, String text, long bytes, String kept) {

        public Part {
            if (name == null || !name.matches("[a-z][a-z0-9-]{0,19}")) {
                throw new IllegalArgumentException("a part's name is one lower-case word, got " + name);
            }
            if (!"tail".equals(kept) && !"start".equals(kept)) {
                throw new IllegalArgumentException("a part keeps its tail or its start, got " + kept);
            }
            byte[] utf8 = (text == null ? "" : text).getBytes(StandardCharsets.UTF_8);
            bytes = bytes > 0 ? bytes : utf8.length; // unknown (0): what the text had, before any cut
            if (utf8.length > MAX_PART_BYTES) {
                text = kept.equals("tail") ? tailOf(utf8, utf8.length, true) : startOf(utf8, MAX_PART_BYTES);
            } else if (text == null) {
                text = "";
            }
        }

        /** The last bytes of a stream that had {@code total} in all; {@code last} holds its last bytes (any number). */
        public static Part tail(String name, byte[] last, long total) {
            return new Part(name, tailOf(last, last.length, total > last.length), total, "tail");
        }

        /** The first bytes of a body that had {@code total} in all; {@code first} holds its first bytes. */
        public static Part start(String name, byte[] first, long total) {
            return new Part(name, startOf(first, Math.min(first.length, MAX_PART_BYTES)), total, "start");
        }

        /**
         * The last {@link #MAX_PART_BYTES} of {@code bytes[0, size)}, begun where a character begins when
         * the stream had bytes before them ({@code cut}).
         */
        private static String tailOf(byte[] bytes, int size, boolean cut) {
            int from = Math.max(0, size - MAX_PART_BYTES);
            boolean inside = cut || from > 0;
            int skipped = 0;
            while (inside && from < size && skipped < 3 && (bytes[from] & 0xC0) == 0x80) {
                from++; // inside a character: its remaining bytes are not one
                skipped++;
            }
            return new String(bytes, from, size - from, StandardCharsets.UTF_8);
        }

        /** {@code bytes[0, size)}, ended before a character cut in two. */
        private static String startOf(byte[] bytes, int size) {
            int end = size;
            if (size < bytes.length) {
                int back = 0;
                while (end > 0 && back < 3 && (bytes[end] & 0xC0) == 0x80) {
                    end--; // the byte after the cut continues a character: the cut is inside it
                    back++;
                }
            }
            return new String(bytes, 0, end, StandardCharsets.UTF_8);
        }
    }
}
