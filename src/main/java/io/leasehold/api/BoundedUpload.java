package io.leasehold.api;

import io.leasehold.core.Clock;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * A request body that must arrive within a time bound. An upload holds a worker thread while it
 * streams; a client that stalls or drips would otherwise hold it for as long as it likes. The bound is
 * checked between reads; one read waiting for a silent client is cut off by Quarkus' own
 * {@code quarkus.http.read-timeout}. Read errors of the body are the client's, not the spool's, and say so.
 */
final class BoundedUpload extends FilterInputStream {

    /** The body did not arrive in full: too slow, cut off, or broken by the client. */
    static final class UploadIncompleteException extends IOException {
        UploadIncompleteException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Clock clock;
    private final Duration bound;
    private final long deadline;

    BoundedUpload(InputStream body, Clock clock, Duration bound) {
        super(body);
        this.clock = clock;
        this.bound = bound;
        this.deadline = clock.monotonicNanos() + bound.toNanos();
    }

    @Override
    public int read() throws IOException {
        check();
        try {
            return super.read();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check();
        try {
            return super.read(b, off, len);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    private void check() throws UploadIncompleteException {
        if (clock.monotonicNanos() - deadline > 0) {
            throw new UploadIncompleteException("the upload did not finish within " + bound
                    + " (leasehold.item.upload-timeout); nothing was kept", null);
        }
    }

    private static IOException broken(IOException e) {
        return e instanceof UploadIncompleteException ? e
                : new UploadIncompleteException("the upload broke off: " + e.getMessage() + "; nothing was kept", e);
    }
}
