package io.leasehold.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.leasehold.testing.FreePorts;
import io.leasehold.testing.NatsServer;
import io.nats.client.Connection;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Connection settings against a real server that demands a token. */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class NatsConnectorTest {

    @Test
    void aTokenIsSentAndAListSkipsADeadServer() throws Exception {
        try (NatsServer server = NatsServer.start("authorization { token: \"s3cret\" }")) {
            int dead = FreePorts.take(); // nothing listens there
            String urls = "nats://127.0.0.1:" + dead + " , " + server.url();
            try (NatsBus bus = NatsConnector.connect(DefaultBus.settings(urls).withToken("s3cret"))) {
                assertEquals(Connection.Status.CONNECTED, bus.connection().getStatus());
                assertEquals(server.url(), bus.connection().getConnectedUrl());
            }
            IOException refused = assertThrows(IOException.class,
                    () -> NatsConnector.connect(DefaultBus.settings(server.url()).withToken("wrong")));
            System.out.println("wrong token: " + refused);
        }
    }

    @Test
    void noUrlIsAnError() {
        assertThrows(IOException.class, () -> NatsConnector.connect(DefaultBus.settings(" , ")));
    }
}
