package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.HashMap;
import java.util.Map;

/** OIDC on beside both static tokens, its issuer's URL a port nothing listens on: an issuer that is down. */
public class OidcUnreachableProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(new OidcProfile().getConfigOverrides());
        config.put("quarkus.oidc.auth-server-url", "http://127.0.0.1:1/realms/leasehold");
        config.put("quarkus.oidc.connection-timeout", "1s");
        return config;
    }
}
