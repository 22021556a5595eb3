package io.leasehold.directory;

import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.PastAttempt;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An attempt record as a file: {@code v3 <kind> <abandoned> <n>} on the first line, then the {@code n}
 * attempts of its history, one a line ({@code <attempt> <holder> <epoch> <startedAt> <endedAt> <outcome>
 * <reason>}, "-" for what is not known), then the text. Files of the format before it, {@code v2 <kind>
 * <abandoned>} and the text, are read as records without a history; only v3 is written.
 */
final class RecordText {

    private static final String V2 = "v2";
    private static final String V3 = "v3";
    private static final String UNKNOWN = "-";

    private RecordText() {
    }

    static String format(AttemptRecord record) {
        StringBuilder out = new StringBuilder(V3).append(' ').append(record.kind().label()).append(' ')
                .append(record.abandoned()).append(' ').append(record.history().size()).append('\n');
        for (PastAttempt a : record.history()) {
            out.append(a.attempt()).append(' ').append(orUnknown(a.holder())).append(' ').append(orUnknown(a.epoch()))
                    .append(' ').append(orUnknown(a.startedAt())).append(' ').append(orUnknown(a.endedAt()))
                    .append(' ').append(a.outcome()).append(' ').append(a.reason() == null ? "" : a.reason())
                    .append('\n');
        }
        return out.append(record.text()).toString();
    }

    static Optional<AttemptRecord> parse(String content) {
        int newline = content.indexOf('\n');
        String[] header = (newline < 0 ? content : content.substring(0, newline)).split(" ");
        boolean v3 = header.length == 4 && header[0].equals(V3);
        if (!v3 && (header.length != 3 || !header[0].equals(V2))) {
            return Optional.empty();
        }
        Optional<AttemptRecord.Kind> kind = AttemptRecord.Kind.parse(header[1]);
        try {
            int abandoned = Integer.parseInt(header[2]);
            int lines = v3 ? Integer.parseInt(header[3]) : 0;
            if (kind.isEmpty() || abandoned < 0 || lines < 0 || lines > PastAttempt.MAX_KEPT) {
                return Optional.empty();
            }
            List<PastAttempt> history = new ArrayList<>(lines);
            int at = newline < 0 ? content.length() : newline + 1;
            for (int i = 0; i < lines; i++) {
                int end = content.indexOf('\n', at);
                if (end < 0) {
                    return Optional.empty();
                }
                history.add(attempt(content.substring(at, end)));
                at = end + 1;
            }
            String text = at >= content.length() ? "" : content.substring(at);
            return Optional.of(new AttemptRecord(kind.get(), abandoned, text, history));
        } catch (IllegalArgumentException | DateTimeException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty(); // NumberFormatException is one too: not a record we wrote
        }
    }

    private static PastAttempt attempt(String line) {
        String[] f = line.split(" ", 7);
        return new PastAttempt(Integer.parseInt(f[0]), known(f[1]), known(f[2]) == null ? null : Long.valueOf(f[2]),
                instant(f[3]), instant(f[4]), f[5], f.length > 6 ? f[6] : null);
    }

    private static String orUnknown(Object value) {
        return value == null ? UNKNOWN : value.toString();
    }

    private static String known(String field) {
        return UNKNOWN.equals(field) ? null : field;
    }

    private static Instant instant(String field) {
        return UNKNOWN.equals(field) ? null : Instant.parse(field);
    }
}
