package io.leasehold.nats;

import io.nats.client.Connection;
import java.time.Duration;

/** A connection with what the lease store needs besides it: the refusals heard and the request timeout. */
public record NatsBus(Connection connection, NatsRefusals refusals, Duration requestTimeout) implements AutoCloseable {

    @Override
    public void close() throws InterruptedException {
        connection.close();
    }
}
