package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** A handler name that is neither built in nor any bean's @Named name. */
public class BadHandlerProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.handler", "no-such-handler");
    }
}
