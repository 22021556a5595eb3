package io.leasehold.nats;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
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

    /**
     * Connects; fails with an IOException when no server in the list lets this client in now. Its
     * message says why in one line (refused credentials, an untrusted certificate, ...) without any
     * secret, and it carries no cause: jnats' own messages repeat the URLs with their user info.
     */
    public static NatsBus connect(NatsSettings settings) throws IOException {
        NatsRefusals refusals = new NatsRefusals();
        Options options = options(settings, refusals);
        try {
            Connection connection = Nats.connect(options);
            return new NatsBus(connection, refusals, settings.requestTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to " + settings.safeUrls());
        } catch (IOException | RuntimeException e) {
            throw new IOException(NatsConnectFailure.describe(settings, e, refusals.exceptions(),
                    refusals.lastError()));
        }
    }

    /** The client options for these settings; {@code refusals} hears the server's permission errors. */
    public static Options options(NatsSettings settings, NatsRefusals refusals) throws IOException {
        String[] urls = Arrays.stream(settings.urls().split(",")).map(String::trim).filter(u -> !u.isEmpty())
                .toArray(String[]::new);
        if (urls.length == 0) {
            throw new IOException("no NATS URL given");
        }
        Options.Builder b = new Options.Builder();
        try {
            b.servers(urls);
        } catch (RuntimeException e) {
            throw new IOException(settings.hideSecrets("leasehold.nats.url is not a list of NATS URLs: "
                    + e.getMessage()));
        }
        b.connectionName(settings.connectionName())
                .connectionTimeout(settings.connectTimeout())
                .maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(500))
                // No buffering while disconnected: a lease write that timed out during an outage must
                // not be replayed on reconnect, long after its writer gave up on it (seen with jnats'
                // default buffer: a renewal "failed" while the server was down landed once it was back).
                .reconnectBufferSize(0)
                .errorListener(refusals)
                .connectionListener((connection, event) -> {
                    if (event == ConnectionListener.Events.CONNECTED || event == ConnectionListener.Events.RECONNECTED) {
                        refusals.connected();
                    }
                    logEvent(settings, refusals.everConnected(), connection, event);
                });
        settings.user().ifPresent(u -> b.userInfo(u, settings.password().orElse("")));
        settings.token().ifPresent(b::token);
        settings.credentials().ifPresent(p -> b.credentialPath(p.toString()));
        if (settings.usesTls()) {
            // Our own context rather than jnats' truststorePath/keystorePath: jnats would not check
            // that the certificate names the server's host.
            b.sslContext(NatsTls.context(settings));
        }
        return b.build();
    }

    private static void logEvent(NatsSettings settings, boolean everConnected, Connection connection,
            ConnectionListener.Events event) {
        String url = connection.getConnectedUrl();
        String server = url == null ? "no server" : settings.hideSecrets(url);
        switch (event) {
            case CONNECTED, RECONNECTED, RESUBSCRIBED -> LOG.infof("NATS %s (%s)", event.getEvent(), server);
            // A connect that never got in is reported once by its caller, not by two lines per try.
            case DISCONNECTED -> LOG.logf(everConnected ? Logger.Level.WARN : Logger.Level.DEBUG, "NATS %s (%s)",
                    event.getEvent(), server);
            // Reconnects never run out (maxReconnects -1), so a close is always this process's own (a command's
            // end, a shutdown): nothing to warn of.
            case CLOSED -> LOG.debugf("NATS %s (%s)", event.getEvent(), server);
            default -> LOG.debugf("NATS %s (%s)", event.getEvent(), server);
        }
    }
}
