package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The http handler with a short per-attempt timeout; the URL comes from {@link ReceiverResource}. */
public class HttpHandlerProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.handler", "http", "leasehold.handler.timeout", "1s");
    }
}
