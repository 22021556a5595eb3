package io.leasehold.config;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The HTTP port taken by another process, said before anything starts and with the fix: Quarkus finds it
 * only after the spool is opened and the drain has started, and then advises {@code kill -9}. A look, not a
 * guarantee: the port may still be taken between this look and the boot, which then reports it its own way.
 */
final class HttpPortInUse {

    private HttpPortInUse() {
    }

    static Optional<String> refusal(Config config) {
        int port = config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080);
        String host = config.getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0");
        if (port <= 0) {
            return Optional.empty(); // a port the system picks is never taken
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true); // as the HTTP server binds: a port in TIME_WAIT is free for it
            probe.bind(new InetSocketAddress(host, port));
            return Optional.empty();
        } catch (IOException e) {
            if (!(e instanceof BindException) || !String.valueOf(e.getMessage()).contains("in use")) {
                return Optional.empty(); // another trouble (an address not of this machine): the boot says it
            }
            return Optional.of("leasehold: quarkus.http.port " + port + " is in use on " + host + " (is another"
                    + " instance already running here?): stop it, or give this one another port, e.g."
                    + " -Dquarkus.http.port=" + (port == 65535 ? 8081 : port + 1));
        }
    }
}
