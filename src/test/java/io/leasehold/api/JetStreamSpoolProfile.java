package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/** The service on the JetStream spool, on a nats-server of the test's own ({@link NatsResource}). */
public class JetStreamSpoolProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.spool.kind", "jetstream", "leasehold.spool.jetstream.bucket", "api-items");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(NatsResource.class));
    }
}
