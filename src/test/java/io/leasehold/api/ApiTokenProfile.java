package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** leasehold.api.token set: every mutating call needs it as a Bearer token. */
public class ApiTokenProfile implements QuarkusTestProfile {

    static final String TOKEN = "s3cret-token";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.api.token", TOKEN);
    }
}
