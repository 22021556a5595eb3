package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** leasehold.item.max-bytes of 1K, so oversized bodies are cheap to send. */
public class SmallPayloadsProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.item.max-bytes", "1K");
    }
}
