package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** Selects the test's own CDI handler bean by its @Named name. */
public class RecordingHandlerProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.handler", "test-recording");
    }
}
