package io.leasehold.testing;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logging.MDC;

/** What one log category writes while the capture is open, record by record. */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger category;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    /** Each record's item keys of the MDC, taken as it is published: on the thread that logged it. */
    private final Map<LogRecord, Map<String, String>> mdcs = Collections.synchronizedMap(new IdentityHashMap<>());

    private LogCapture(String category) {
        this.category = Logger.getLogger(category);
    }

    public static LogCapture of(String category) {
        LogCapture capture = new LogCapture(category);
        capture.category.addHandler(capture);
        return capture;
    }

    @Override
    public void publish(LogRecord record) {
        Map<String, String> mdc = new TreeMap<>();
        for (String key : new String[] {"itemId", "attempt", "epoch"}) {
            Object value = MDC.get(key);
            if (value != null) {
                mdc.put(key, value.toString());
            }
        }
        mdcs.put(record, mdc);
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        category.removeHandler(this);
    }

    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** The MDC's itemId, attempt and epoch (those set) on the thread that logged the first line containing {@code text}. */
    public Map<String, String> mdcOf(String text) {
        return records.stream().filter(r -> text(r).contains(text)).findFirst().map(mdcs::get)
                .orElseThrow(() -> new AssertionError("no line with '" + text + "' in " + lines()));
    }

    /** Each record's text as the log writes it (JBoss Logging hands over a printf pattern and its parameters). */
    public List<String> lines() {
        return records.stream().map(LogCapture::text).toList();
    }

    /** The lines logged at {@code level} or above. */
    public List<String> linesAtLeast(Level level) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue()).map(LogCapture::text).toList();
    }

    public static String text(LogRecord r) {
        return r.getParameters() == null || r.getParameters().length == 0 ? r.getMessage()
                : String.format(r.getMessage(), r.getParameters());
    }
}
