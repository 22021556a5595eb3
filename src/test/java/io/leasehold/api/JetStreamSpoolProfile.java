package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The service on the JetStream spool, on a nats-server of the test's own ({@link NatsResource}): one
 * profile for every JetStream API test, so one start serves them all. Its max-bytes is small, for cheap
 * 413s, and past the ledger's inline size, so payloads near the limit are stored as objects.
 */
public class JetStreamSpoolProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.spool.kind", "jetstream", "leasehold.spool.jetstream.bucket", "api-items",
                "leasehold.item.max-bytes", "24K");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(NatsResource.class));
    }
}
