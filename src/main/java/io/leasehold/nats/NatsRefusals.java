package io.leasehold.nats;

import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * Hears the server's permission errors. A publish or subscribe the server refuses is not answered at
 * all: the server sends an {@code -ERR 'Permissions Violation for Publish to "..."'} on the side and
 * the request then times out. Remembering the last such error lets a timed-out call tell "refused"
 * from "no answer".
 */
public final class NatsRefusals implements ErrorListener {

    private static final Logger LOG = Logger.getLogger(NatsRefusals.class);

    /** One refusal: the server's words and when it arrived ({@link System#nanoTime()}). */
    public record Refusal(String error, long atNanos) {
    }

    private static final int KEPT_EXCEPTIONS = 8;

    private final AtomicReference<Refusal> last = new AtomicReference<>();
    private final Deque<Exception> exceptions = new ArrayDeque<>();
    private final AtomicReference<String> lastWarned = new AtomicReference<>();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private volatile boolean everConnected;

    @Override
    public void errorOccurred(Connection conn, String error) {
        if (error != null && error.toLowerCase(Locale.ROOT).contains("permissions violation")) {
            last.set(new Refusal(error, System.nanoTime()));
            LOG.debugf("NATS refused: %s", error);
            return;
        }
        lastError.set(error);
        if (!everConnected) {
            // Before the first connect succeeds, the connect's own failure says this (once, by its caller).
            LOG.debugf("NATS error while connecting: %s", error);
        } else if (!String.valueOf(error).equals(lastWarned.getAndSet(String.valueOf(error)))) {
            LOG.warnf("NATS error: %s", error);
        } else {
            // The same error on every reconnect try (every 500 ms): said once until a connect succeeds.
            LOG.debugf("NATS error: %s", error);
        }
    }

    /** A connect or reconnect succeeded: the next error is news again. */
    void connected() {
        everConnected = true;
        lastWarned.set(null);
    }

    /** The server's last error other than a permission refusal (e.g. "Authorization Violation"), or null. */
    String lastError() {
        return lastError.get();
    }

    /** Whether a connect ever succeeded on this connection. */
    boolean everConnected() {
        return everConnected;
    }

    @Override
    public void exceptionOccurred(Connection conn, Exception exp) {
        // jnats reports a failed TLS handshake only here; its connect then says "Unable to connect".
        synchronized (exceptions) {
            exceptions.addLast(exp);
            if (exceptions.size() > KEPT_EXCEPTIONS) {
                exceptions.removeFirst();
            }
        }
        LOG.debugf(exp, "NATS connection exception");
    }

    /** The latest exceptions the client reported on the side, oldest first: why a connect failed, for one. */
    public List<Exception> exceptions() {
        synchronized (exceptions) {
            return List.copyOf(exceptions);
        }
    }

    /** The last refusal that arrived at or after {@code sinceNanos} and names one of {@code subjects}. */
    public Refusal since(long sinceNanos, String... subjects) {
        Refusal r = last.get();
        if (r == null || r.atNanos() - sinceNanos < 0) {
            return null;
        }
        for (String s : subjects) {
            if (r.error().contains(s)) {
                return r;
            }
        }
        return null;
    }
}
