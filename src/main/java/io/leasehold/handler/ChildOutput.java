package io.leasehold.handler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One stream of an exec child (stdout or stderr), read on a thread of its own and logged line by line,
 * each line tagged with the item and attempt, under the category {@code io.leasehold.exec.output} (so it
 * can be routed or silenced apart from the service's own lines): the child's bytes never reach the
 * service's log raw. The last {@link #TAIL_BYTES} are kept for the attempt's reason.
 *
 * <p>Bounded: a line longer than {@link #MAX_LINE} is cut into pieces, and after {@link #MAX_LINES}
 * lines the rest is read and dropped (one line says so), so a chatty child neither floods the log nor
 * blocks on a full pipe.
 */
final class ChildOutput {

    static final Logger OUTPUT = Logger.getLogger("io.leasehold.exec.output");
    static final int MAX_LINE = 8 * 1024;
    static final int MAX_LINES = 10_000;
    static final int TAIL_BYTES = 2048;

    private final String tag;
    private final InputStream in;
    private final boolean errors;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final byte[] tail = new byte[TAIL_BYTES];
    private long total;
    private int lines;

    private ChildOutput(String tag, InputStream in, boolean errors) {
        this.tag = tag;
        this.in = in;
        this.errors = errors;
    }

    /** Starts reading {@code in}; {@code stream} is "stdout" or "stderr". */
    static ChildOutput follow(String itemId, int attempt, String stream, InputStream in) {
        ChildOutput out = new ChildOutput(itemId + " #" + attempt + " " + stream, in, stream.equals("stderr"));
        Thread reader = new Thread(out::readAll, "leasehold-exec-" + stream + "-" + itemId);
        reader.setDaemon(true);
        reader.start();
        return out;
    }

    private void readAll() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    keep(b);
                    if (b == '\n') {
                        log(line);
                    } else {
                        line.write(b);
                        if (line.size() >= MAX_LINE) {
                            log(line);
                        }
                    }
                }
            }
        } catch (IOException e) {
            // The pipe closed under us (the child's group killed): what was read was logged.
        } finally {
            if (line.size() > 0) {
                log(line);
            }
            ended.countDown();
        }
    }

    private void keep(byte b) {
        synchronized (tail) {
            tail[(int) (total % TAIL_BYTES)] = b;
            total++;
        }
    }

    private void log(ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        lines++;
        if (lines <= MAX_LINES) {
            OUTPUT.logf(errors ? Logger.Level.WARN : Logger.Level.INFO, "[%s] %s", tag, text);
        } else if (lines == MAX_LINES + 1) {
            OUTPUT.warnf("[%s] more than %d lines: the rest is not logged", tag, MAX_LINES);
        }
    }

    /**
     * The last bytes of the stream, stripped, once it ended or {@code wait} passed (a grandchild may hold
     * the pipe open after the command exited: its later bytes are not waited for).
     */
    String tail(long waitMillis) {
        try {
            ended.await(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (tail) {
            int size = (int) Math.min(total, TAIL_BYTES);
            byte[] last = new byte[size];
            for (int i = 0; i < size; i++) {
                last[i] = tail[(int) ((total - size + i) % TAIL_BYTES)];
            }
            return new String(last, StandardCharsets.UTF_8).strip();
        }
    }
}
