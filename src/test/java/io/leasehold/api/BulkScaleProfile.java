package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The directory spool with {@link HoldingHandler}, for the 100,000-item bulk figures. */
public class BulkScaleProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.handler", "test-holding");
    }
}
