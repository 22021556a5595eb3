package io.leasehold.config;

import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * OIDC's two keys go together (docs/http-api.md, Access): OIDC is off by default (application.properties), and an
 * issuer's URL set without turning it on would leave the API to the static tokens, or open, with nothing said;
 * turned on without a URL, Quarkus' boot fails with lines of its own.
 */
final class OidcRules {

    static final String ENABLED = "quarkus.oidc.tenant-enabled";
    static final String URL = "quarkus.oidc.auth-server-url";

    private OidcRules() {
    }

    static void check(Problems problems, Config config) {
        boolean enabled;
        try {
            enabled = config.getOptionalValue(ENABLED, Boolean.class).orElse(false); // ours (application.properties), not Quarkus. true
        } catch (IllegalArgumentException e) {
            problems.add(ENABLED, "must be true or false");
            return;
        }
        Optional<String> url = config.getOptionalValue(URL, String.class).filter(u -> !u.isBlank());
        if (enabled && url.isEmpty()) {
            problems.add(ENABLED, "is true but " + URL + " is not set: set it to the issuer's URL (for Keycloak"
                    + " https://HOST/realms/REALM), or set " + ENABLED + "=false");
        } else if (!enabled && url.isPresent()) {
            problems.add(URL, "is set but OIDC is off: set " + ENABLED + "=true to accept the issuer's tokens, or remove "
                    + URL);
        }
    }
}
