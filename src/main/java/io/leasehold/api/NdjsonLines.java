package io.leasehold.api;

import java.io.IOException;
import java.io.InputStream;

/**
 * A request body read one line at a time, each line a stream of its own that ends at its newline, so a
 * parser never reads past it; a line longer than the bound is refused once its bytes pass the bound,
 * never held. Blank lines are skipped (their numbers still count).
 */
final class NdjsonLines {

    /** A line passed the bound. */
    static final class LineTooLongException extends IOException {
        LineTooLongException(int line, long bound) {
            super("line " + line + " is longer than " + bound + " bytes, the most an item within leasehold.item.max-bytes"
                    + " can take (every byte written as a \\u escape)");
        }
    }

    private final InputStream body;
    private final long bound;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private boolean bodyEnded;
    private int number;

    NdjsonLines(InputStream body, long bound) {
        this.body = body;
        this.bound = bound;
    }

    /** The number of the line {@link #next()} returned last, from 1. */
    int number() {
        return number;
    }

    /** The next line that is not blank, or null at the end of the body; the line before must have been read whole. */
    InputStream next() throws IOException {
        while (true) {
            if (!fill()) {
                return null;
            }
            number++;
            int first = skipBlanks();
            if (first == '\n') {
                position++;
                continue;
            }
            if (first < 0) {
                return null;
            }
            return new Line(number);
        }
    }

    /**
     * Skips spaces, tabs and CRs; returns the byte after them (not consumed) as its unsigned value, or -1
     * at the end: a signed byte would read a line led by a byte of 0x80 or more as the end of the body.
     */
    private int skipBlanks() throws IOException {
        while (fill()) {
            int b = buffer[position] & 0xFF;
            if (b != ' ' && b != '\t' && b != '\r') {
                return b;
            }
            position++;
        }
        return -1;
    }

    private boolean fill() throws IOException {
        if (position < limit) {
            return true;
        }
        if (bodyEnded) {
            return false;
        }
        int n = body.read(buffer, 0, buffer.length);
        if (n < 0) {
            bodyEnded = true;
            return false;
        }
        position = 0;
        limit = n;
        return n > 0 || fill();
    }

    private final class Line extends InputStream {
        private final int line;
        private long read;
        private boolean ended;

        Line(int line) {
            this.line = line;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (ended || len == 0) {
                return ended ? -1 : 0;
            }
            if (!fill()) {
                ended = true;
                return -1;
            }
            int n = 0;
            while (n < len && position < limit) {
                byte c = buffer[position++];
                if (c == '\n') {
                    ended = true;
                    break;
                }
                b[off + n++] = c;
            }
            read += n;
            if (read > bound) {
                throw new LineTooLongException(line, bound);
            }
            return n == 0 && ended ? -1 : n;
        }
    }

}
