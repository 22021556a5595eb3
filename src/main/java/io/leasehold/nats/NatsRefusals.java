package io.leasehold.nats;

import io.nats.client.Connection;
import io.nats.client.ErrorListener;
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

    private final AtomicReference<Refusal> last = new AtomicReference<>();

    @Override
    public void errorOccurred(Connection conn, String error) {
        if (error != null && error.toLowerCase(Locale.ROOT).contains("permissions violation")) {
            last.set(new Refusal(error, System.nanoTime()));
            LOG.debugf("NATS refused: %s", error);
        } else {
            LOG.warnf("NATS error: %s", error);
        }
    }

    @Override
    public void exceptionOccurred(Connection conn, Exception exp) {
        LOG.debugf(exp, "NATS connection exception");
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
