package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * OIDC on beside both static tokens, against an OIDC-shaped issuer (WireMock: discovery and the keys of
 * {@link OidcTokens}), with roles read Keycloak's way ({@code realm_access/roles}), as docs/http-api.md shows.
 */
public class OidcProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(oidcOnly());
        config.putAll(new ViewerTokenProfile().getConfigOverrides());
        return config;
    }

    /** The keys that turn OIDC on, as a user sets them (keycloak.url is the issuer's, from the test resource). */
    static Map<String, String> oidcOnly() {
        return Map.of("quarkus.oidc.tenant-enabled", "true",
                "quarkus.oidc.auth-server-url", "${keycloak.url}/realms/quarkus",
                "quarkus.oidc.client-id", "leasehold",
                "quarkus.oidc.roles.role-claim-path", "realm_access/roles",
                // the mock's discovery names itself the issuer; its tokens (and ours) name this one
                "quarkus.oidc.token.issuer", OidcTokens.ISSUER);
    }

    /** The issuer runs only for the classes of this profile (a class-level @QuarkusTestResource would start it for all). */
    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(OidcWiremockTestResource.class));
    }
}
