package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** OIDC's two keys are set together, or the start is refused naming the missing one and the fix. */
class OidcRulesTest {

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 500)).build();
    }

    private static void check(Map<String, String> properties) {
        Problems problems = new Problems();
        OidcRules.check(problems, config(properties));
        problems.stopIfAny();
    }

    @Test
    void oidcOffWithoutAnIssuerAndOnWithOnePass() {
        assertDoesNotThrow(() -> check(Map.of("quarkus.oidc.tenant-enabled", "false")));
        assertDoesNotThrow(() -> check(Map.of("quarkus.oidc.tenant-enabled", "true",
                "quarkus.oidc.auth-server-url", "https://keycloak.example/realms/leasehold")));
    }

    @Test
    void anIssuerWithOidcOffIsRefusedNamingTheSwitch() {
        RuntimeException refused = assertThrows(RuntimeException.class, () -> check(Map.of("quarkus.oidc.tenant-enabled",
                "false", "quarkus.oidc.auth-server-url", "https://keycloak.example/realms/leasehold")));
        assertEquals("invalid configuration: quarkus.oidc.auth-server-url is set but OIDC is off: set quarkus.oidc.tenant-enabled=true to accept"
                + " the issuer's tokens, or remove quarkus.oidc.auth-server-url", refused.getMessage());
    }

    @Test
    void oidcOnWithoutAnIssuerIsRefusedNamingTheUrl() {
        RuntimeException refused = assertThrows(RuntimeException.class,
                () -> check(Map.of("quarkus.oidc.tenant-enabled", "true")));
        assertEquals("invalid configuration: quarkus.oidc.tenant-enabled is true but quarkus.oidc.auth-server-url is not set: set it to the"
                + " issuer's URL (for Keycloak https://HOST/realms/REALM), or set quarkus.oidc.tenant-enabled=false",
                refused.getMessage());
    }
}
