package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The poison suite on a JetStream spool, on a nats-server of its own: items enqueued and their states
 * seen through the API of a front instance that never drains, so the poison can never kill the
 * instance the test talks to (a drainer may die between any two requests).
 */
class JetStreamPoisonItemIT extends PoisonItemContract {

    private NatsServer nats;
    private ServiceProcess front;

    @BeforeEach
    void startNatsAndFront() {
        nats = NatsServer.start();
        front = start("front", Map.of("leasehold.drain.auto", "false")).awaitReady(Duration.ofSeconds(60));
    }

    @AfterEach
    void stopNats() {
        nats.close();
    }

    @Override
    protected Map<String, String> backend() {
        return Map.of(
                "leasehold.spool.kind", "jetstream",
                "leasehold.spool.jetstream.bucket", "poison",
                "leasehold.nats.url", nats.url());
    }

    @Override
    protected void enqueue(String id, String payload) {
        var answer = front.enqueue(id, payload);
        assertEquals(201, answer.statusCode(), answer.body());
    }

    @Override
    protected Set<String> ids(String state) {
        try {
            Set<String> ids = new TreeSet<>();
            for (JsonNode item : JSON.readTree(front.get("/items?state=" + state + "&limit=1000"))) {
                ids.add(item.path("id").asText());
            }
            return ids;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
