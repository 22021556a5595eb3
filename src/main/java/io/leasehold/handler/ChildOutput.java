package io.leasehold.handler;

import io.leasehold.core.HandlerOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * One stream of an exec child (stdout or stderr), read on a thread of its own and logged line by line,
 * each line tagged with the item and attempt, under the category {@code io.leasehold.exec.output} (so it
 * can be routed or silenced apart from the service's own lines): the child's bytes never reach the
 * service's log raw. The last {@link #TAIL_BYTES} are kept for the attempt's output, the last
 * {@link #REASON_BYTES} of them for its reason.
 *
 * <p>Bounded: a line longer than {@link #MAX_LINE} is cut into pieces, and after {@link #MAX_LINES}
 * lines the rest is read and dropped (one line says so), so a chatty child neither floods the log nor
 * blocks on a full pipe.
 */
final class ChildOutput {

    static final Logger OUTPUT = Logger.getLogger("io.leasehold.exec.output");
    static final int MAX_LINE = 8 * 1024;
    static final int MAX_LINES = 10_000;
    static final int TAIL_BYTES = HandlerOutput.MAX_PART_BYTES;
    /** How much of the tail a reason takes: a reason is written into the item's records on every failure. */
    static final int REASON_BYTES = 2048;
    /** How long a stream that has not ended may stay silent before an exited command's output is taken as it is. */
    static final long QUIET_MILLIS = 100;

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

    /**
     * Starts reading {@code in}; {@code stream} is "stdout" or "stderr". The reader thread's lines carry
     * the item's log context (the keys of {@code drain.ItemLogContext}, which this package cannot import:
     * the drain depends on the handlers), set on that thread since it is made for this one attempt.
     */
    static ChildOutput follow(String itemId, int attempt, long epoch, String stream, InputStream in) {
        ChildOutput out = new ChildOutput(itemId + " #" + attempt + " " + stream, in, stream.equals("stderr"));
        Thread reader = new Thread(() -> {
            MDC.put("itemId", itemId);
            MDC.put("attempt", String.valueOf(attempt));
            if (epoch > 0) {
                MDC.put("epoch", String.valueOf(epoch));
            } else {
                MDC.remove("epoch"); // no lease: inherited from whoever made the thread, it would be stale
            }
            out.readAll();
        }, "leasehold-exec-" + stream + "-" + itemId);
        reader.setDaemon(true);
        reader.start();
        return out;
    }

    private void readAll() {
        byte[] line = new byte[MAX_LINE];
        int size = 0;
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    keep(b);
                    if (b == '\n') {
                        // A CRLF line: its carriage return is not logged (a raw control byte in the log).
                        log(line, size > 0 && line[size - 1] == '\r' ? size - 1 : size);
                        size = 0;
                    } else {
                        line[size++] = b;
                        if (size == MAX_LINE) {
                            // Cut where a character starts: its first bytes begin the next piece.
                            int cut = boundary(line, size);
                            log(line, cut);
                            System.arraycopy(line, cut, line, 0, size - cut);
                            size -= cut;
                        }
                    }
                }
            }
        } catch (IOException e) {
            // The pipe closed under us (the child's group killed): what was read was logged.
        } finally {
            if (size > 0) {
                log(line, size);
            }
            ended.countDown();
        }
    }

    /** Where {@code bytes[0, size)} can be cut without splitting a UTF-8 sequence (size when none is open). */
    static int boundary(byte[] bytes, int size) {
        for (int i = size - 1; i >= Math.max(0, size - 4); i--) {
            int b = bytes[i] & 0xFF;
            if ((b & 0xC0) != 0x80) { // not a continuation byte: a character starts here
                int length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
                return i + length > size && i > 0 ? i : size;
            }
        }
        return size;
    }

    private void keep(byte b) {
        synchronized (tail) {
            tail[(int) (total % TAIL_BYTES)] = b;
            total++;
        }
    }

    private void log(byte[] line, int size) {
        String text = printable(new String(line, 0, size, StandardCharsets.UTF_8));
        lines++;
        if (lines <= MAX_LINES) {
            OUTPUT.logf(errors ? Logger.Level.WARN : Logger.Level.INFO, "[%s] %s", tag, text);
        } else if (lines == MAX_LINES + 1) {
            OUTPUT.warnf("[%s] more than %d lines: the rest is not logged", tag, MAX_LINES);
        }
    }

    /**
     * Control characters (but tab) written as {@code \xNN}: a child must not clear the operator's terminal,
     * hide text behind a carriage return or forge a line of the service's own.
     */
    static String printable(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f);
            if (control && out == null) {
                out = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (out != null) {
                if (control) {
                    out.append(String.format("\\x%02x", (int) c));
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }

    /**
     * Waits for the stream's end while bytes still come, at most {@code waitMillis}: a reader lagging behind a
     * chatty child catches up, while a pipe held open by a quiet process (a daemon started without redirecting
     * its output) is given up after {@code QUIET_MILLIS} without a byte.
     */
    void awaitEndWhileBusy(long waitMillis) {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        long seen = -1;
        while (System.nanoTime() < deadline) {
            long now;
            synchronized (tail) {
                now = total;
            }
            if (now == seen) {
                return; // nothing came for a quiet span
            }
            seen = now;
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (awaitEnd(Math.max(0, Math.min(QUIET_MILLIS, left)))) {
                return;
            }
        }
    }

    /** Whether the stream reached its end (every writer closed it) within {@code waitMillis}. */
    boolean awaitEnd(long waitMillis) {
        try {
            return ended.await(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What the stream showed so far, as the attempt's output keeps it: its tail and its length. */
    HandlerOutput.Part part(String name) {
        synchronized (tail) {
            return HandlerOutput.Part.tail(name, lastBytes(), total);
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
            byte[] last = lastBytes();
            int size = last.length;
            int from = Math.max(0, size - REASON_BYTES);
            int start = from;
            while ((total > size || start > 0) && from < Math.min(start + 3, size) && (last[from] & 0xC0) == 0x80) {
                from++; // the tail began inside a character: its remaining bytes are not a character
            }
            return new String(last, from, size - from, StandardCharsets.UTF_8).strip();
        }
    }

    private byte[] lastBytes() {
        int size = (int) Math.min(total, TAIL_BYTES);
        byte[] last = new byte[size];
        for (int i = 0; i < size; i++) {
            last[i] = tail[(int) ((total - size + i) % TAIL_BYTES)];
        }
        return last;
    }
}
