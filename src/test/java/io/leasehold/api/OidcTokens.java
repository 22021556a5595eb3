package io.leasehold.api;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Access tokens as an OIDC issuer signs them: roles Keycloak's way (claim realm_access, roles), signed by the key
 * whose public half the test issuer (OidcWiremockTestResource) serves as its JWKS, or not.
 */
final class OidcTokens {

    static final String ISSUER = "https://server.example.com";
    /** The test issuer's signing key (its JWKS serves the public half under the key id "1"). */
    private static final String ISSUERS_KEY = "privateKey.jwk";

    private OidcTokens() {
    }

    /** A valid token of {@code user} with {@code roles}, for five minutes. */
    static String of(String user, String... roles) {
        return claims(user, roles).expiresIn(300).jws().keyId("1").sign(ISSUERS_KEY);
    }

    /** A token signed by the issuer, an hour past its expiry. */
    static String expired(String user, String... roles) {
        Instant now = Instant.now();
        return claims(user, roles).issuedAt(now.minusSeconds(7200)).expiresAt(now.minusSeconds(3600)).jws().keyId("1")
                .sign(ISSUERS_KEY);
    }

    /** A token like {@link #of}, under the issuer's key id but signed by another key. */
    static String signedByAnotherKey(String user, String... roles) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return claims(user, roles).expiresIn(300).jws().keyId("1").sign(generator.generateKeyPair().getPrivate());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has RSA", e);
        }
    }

    private static JwtClaimsBuilder claims(String user, String... roles) {
        return Jwt.preferredUserName(user).subject(user).issuer(ISSUER)
                .claim("realm_access", Map.of("roles", List.of(roles)));
    }
}
