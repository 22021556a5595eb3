package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/** OIDC on and no static token: the API is not open, every call needs an issuer's token. */
public class OidcOnlyProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return OidcProfile.oidcOnly();
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return new OidcProfile().testResources();
    }
}
