package io.leasehold.api;

import io.leasehold.testing.NatsServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A nats-server of the test's own (free port, own store) started before the app, which is pointed at it,
 * with a spool folder as new as the server: the epoch floor kept there must not say that a server which
 * never saw this run's lease had issued epochs (that would be a wipe, and the lease would wait it out).
 */
public class NatsResource implements QuarkusTestResourceLifecycleManager {

    private NatsServer server;

    @Override
    public Map<String, String> start() {
        server = NatsServer.start();
        Path dir;
        try {
            dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "js-spool-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("leasehold.nats.url", server.url(), "leasehold.spool.dir", dir.toString());
    }

    @Override
    public void stop() {
        server.close();
    }
}
