package io.leasehold.nats;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import org.jboss.logging.Logger;

/**
 * Builds the client options from {@link NatsSettings} and connects. Once connected the client
 * reconnects forever: whether the lease survives an outage is the lease's decision (its own deadline),
 * never the client's giving up.
 */
public final class NatsConnector {

    private static final Logger LOG = Logger.getLogger(NatsConnector.class);

    private NatsConnector() {
    }

    /** Connects; fails with an IOException when no server in the list answers now. */
    public static NatsBus connect(NatsSettings settings) throws IOException {
        NatsRefusals refusals = new NatsRefusals();
        try {
            Connection connection = Nats.connect(options(settings, refusals));
            return new NatsBus(connection, refusals, settings.requestTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to " + settings.urls(), e);
        }
    }

    /** The client options for these settings; {@code refusals} hears the server's permission errors. */
    public static Options options(NatsSettings settings, NatsRefusals refusals) throws IOException {
        String[] urls = Arrays.stream(settings.urls().split(",")).map(String::trim).filter(u -> !u.isEmpty())
                .toArray(String[]::new);
        if (urls.length == 0) {
            throw new IOException("no NATS URL given");
        }
        Options.Builder b = new Options.Builder()
                .servers(urls)
                .connectionName(settings.connectionName())
                .connectionTimeout(settings.connectTimeout())
                .maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(500))
                // No buffering while disconnected: a lease write that timed out during an outage must
                // not be replayed on reconnect, long after its writer gave up on it (seen with jnats'
                // default buffer: a renewal "failed" while the server was down landed once it was back).
                .reconnectBufferSize(0)
                .errorListener(refusals)
                .connectionListener(NatsConnector::logEvent);
        settings.user().ifPresent(u -> b.userInfo(u, settings.password().orElse("")));
        settings.token().ifPresent(b::token);
        settings.credentials().ifPresent(p -> b.credentialPath(p.toString()));
        settings.truststore().ifPresent(p -> b.truststorePath(p.toString()));
        settings.truststorePassword().ifPresent(p -> b.truststorePassword(p.toCharArray()));
        settings.keystore().ifPresent(p -> b.keystorePath(p.toString()));
        settings.keystorePassword().ifPresent(p -> b.keystorePassword(p.toCharArray()));
        boolean stores = settings.truststore().isPresent() || settings.keystore().isPresent();
        if (!stores && Arrays.stream(urls).anyMatch(u -> u.regionMatches(true, 0, "tls://", 0, 6))) {
            try {
                // The JVM's default trust (cacerts), as for any TLS client.
                b.sslContext(SSLContext.getDefault());
            } catch (NoSuchAlgorithmException e) {
                throw new IOException("no default TLS context for " + settings.urls(), e);
            }
        }
        return b.build();
    }

    private static void logEvent(Connection connection, ConnectionListener.Events event) {
        String server = connection.getConnectedUrl();
        switch (event) {
            case CONNECTED, RECONNECTED, RESUBSCRIBED -> LOG.infof("NATS %s (%s)", event.getEvent(), server);
            case DISCONNECTED, CLOSED -> LOG.warnf("NATS %s (%s)", event.getEvent(), server);
            default -> LOG.debugf("NATS %s (%s)", event.getEvent(), server);
        }
    }
}
