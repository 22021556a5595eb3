package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Ports for the servers a test starts (services, nats-server). The kernel may answer the same free port
 * to two binds in a row once the first socket is closed, so two services started back to back could be
 * given one port: the second to boot then dies on "address in use" while the first answers for both. A
 * port handed out once in this JVM is never handed out again.
 */
public final class FreePorts {

    private static final Set<Integer> GIVEN = new HashSet<>();

    private FreePorts() {
    }

    /** A port free on every address now and not handed out before by this JVM. */
    public static synchronized int take() {
        for (int tries = 0; tries < 1000; tries++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException("no free port", e);
            }
            if (GIVEN.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no port not handed out before after 1000 tries");
    }
}
