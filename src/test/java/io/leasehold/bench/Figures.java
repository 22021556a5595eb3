package io.leasehold.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The benchmark's figures, gathered as they are measured and shown as one table at the end. */
final class Figures {

    private record Row(String part, String measure, String value, String note) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final String loadAtStart = loadAverage();
    private final Instant started = Instant.now();
    private final String title;

    Figures() {
        this("leasehold drain benchmark");
    }

    Figures(String title) {
        this.title = title;
    }

    synchronized void add(String part, String measure, String value, String note) {
        rows.add(new Row(part, measure, value, note == null ? "" : note));
    }

    synchronized void note(String text) {
        notes.add(text);
    }

    static String num(double value, String unit) {
        return String.format(Locale.ROOT, value >= 100 ? "%,.0f %s" : "%,.1f %s", value, unit).trim();
    }

    /** The median of the values, with their min and max: "5,690 (5,210-5,900) items/s". */
    static String spread(double[] values, String unit) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return num(median(values), "") + " (" + num(sorted[0], "") + "-" + num(sorted[sorted.length - 1], "") + ") "
                + unit;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    synchronized String render() {
        int[] width = {4, 7, 5, 4};
        for (Row r : rows) {
            width[0] = Math.max(width[0], r.part.length());
            width[1] = Math.max(width[1], r.measure.length());
            width[2] = Math.max(width[2], r.value.length());
            width[3] = Math.max(width[3], r.note.length());
        }
        StringBuilder out = new StringBuilder();
        out.append("# ").append(title).append("\n\n");
        out.append("Run ").append(started).append(" on ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ").append(System.getProperty("java.version"))
                .append("; load average at start ").append(loadAtStart).append(", at end ").append(loadAverage())
                .append(" (other builds may share this machine; the figures are for comparison, not promises).\n\n");
        line(out, width, "part", "measure", "value", "note");
        out.append('|');
        for (int w : width) {
            out.append('-').append("-".repeat(w)).append("-|");
        }
        out.append('\n');
        for (Row r : rows) {
            line(out, width, r.part, r.measure, r.value, r.note);
        }
        if (!notes.isEmpty()) {
            out.append('\n');
            for (String n : notes) {
                out.append("- ").append(n).append('\n');
            }
        }
        return out.toString();
    }

    private static void line(StringBuilder out, int[] width, String... cells) {
        out.append('|');
        for (int i = 0; i < cells.length; i++) {
            out.append(' ').append(cells[i]).append(" ".repeat(width[i] - cells[i].length())).append(" |");
        }
        out.append('\n');
    }
}
