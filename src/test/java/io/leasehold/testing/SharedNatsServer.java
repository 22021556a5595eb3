package io.leasehold.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One nats-server for all the tests of a class that each use a bucket of their own, so the class
 * pays one server start: {@code @RegisterExtension static final SharedNatsServer NATS = new SharedNatsServer();}
 */
public final class SharedNatsServer implements BeforeAllCallback, AfterAllCallback {

    private NatsServer server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = NatsServer.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    public NatsServer server() {
        return server;
    }
}
