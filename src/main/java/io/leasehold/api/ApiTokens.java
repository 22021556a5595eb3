package io.leasehold.api;

import io.leasehold.config.LeaseholdConfig;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.Set;

/**
 * The API's two static tokens as a Quarkus Security mechanism: {@code Authorization: Bearer <token>} gives the
 * role {@value #OPERATOR} (with {@code leasehold.api.token}: reads and changes) or {@value #VIEWER} (with
 * {@code leasehold.api.viewer-token}: reads only); every resource says which role each call needs
 * ({@code @RolesAllowed}). With no token configured and OIDC off the API is open: every caller is an operator.
 * A missing or wrong token leaves the caller anonymous here: with OIDC on ({@code quarkus.oidc.tenant-enabled=true})
 * Quarkus then asks its OIDC mechanism, which reads the roles from the token; with OIDC off the call is answered
 * 401 ({@link AccessErrors}).
 */
@Singleton
public class ApiTokens implements HttpAuthenticationMechanism {

    private static final Logger LOG = Logger.getLogger(ApiTokens.class);

    public static final String OPERATOR = "operator";
    public static final String VIEWER = "viewer";

    private final Optional<byte[]> operator;
    private final Optional<byte[]> viewer;
    private final boolean oidc;
    /** A JWS in compact form: three base64url parts (header, claims, signature). */
    private static final java.util.regex.Pattern JWT = java.util.regex.Pattern.compile(
            "[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

    /** {@code oidc}: whether Quarkus' OIDC mechanism takes the other bearers (off by default: application.properties). */
    public ApiTokens(LeaseholdConfig config,
            @ConfigProperty(name = "quarkus.oidc.tenant-enabled", defaultValue = "true") boolean oidc) {
        this.operator = config.api().token().map(ApiTokens::digest);
        this.viewer = config.api().viewerToken().map(ApiTokens::digest);
        this.oidc = oidc;
    }

    /**
     * Who may call the API, said once the start is over (a start that fails later in the boot prints its one line
     * and nothing else): an empty LEASEHOLD_API_TOKEN (a secret without its key) reads as none, and opens the API.
     */
    void sayWhoMayCall(@Observes @Priority(Integer.MAX_VALUE) StartupEvent start) {
        LOG.info(startLine(operator.isPresent(), viewer.isPresent(), oidc));
    }

    /** How the start says who may call the API with OIDC off. */
    static String startLine(boolean operatorToken, boolean viewerToken) {
        return startLine(operatorToken, viewerToken, false);
    }

    /** How the start says who may call the API (docs/http-api.md, Access, quotes every form). */
    static String startLine(boolean operatorToken, boolean viewerToken, boolean oidc) {
        String issuer = "an access token of the OIDC issuer (quarkus.oidc.auth-server-url) with the role operator, or viewer"
                + " to read only";
        if (!operatorToken) {
            return oidc ? "API access: every call needs Authorization: Bearer with " + issuer
                    : "API access: open, anyone who reaches the port may read and change (no leasehold.api.token is set;"
                            + " an empty one counts as none)";
        }
        return "API access: every call needs Authorization: Bearer with leasehold.api.token"
                + (viewerToken ? ", or leasehold.api.viewer-token to read only" : "") + (oidc ? ", or " + issuer : "");
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        if (operator.isEmpty() && !oidc) {
            return Uni.createFrom().item(identity("anyone (no leasehold.api.token is set)", OPERATOR, VIEWER));
        }
        String header = context.request().getHeader("Authorization");
        String sent = header == null ? "" : bearerToken(header);
        byte[] given = digest(sent); // digests of equal length: the comparison tells nothing of a token's length
        if (!sent.isEmpty() && operator.isPresent() && MessageDigest.isEqual(operator.get(), given)) {
            return Uni.createFrom().item(identity("the operator's token", OPERATOR, VIEWER));
        }
        if (!sent.isEmpty() && viewer.isPresent() && MessageDigest.isEqual(viewer.get(), given)) {
            return Uni.createFrom().item(identity("the viewer's token", VIEWER));
        }
        if (oidc && !sent.isEmpty() && !JWT.matcher(sent).matches()) {
            // No JWT, so no OIDC token: refused here, also while the issuer is away (a mistyped static token is a
            // 401 to fix, not a 503 to wait out).
            return Uni.createFrom().failure(new AuthenticationFailedException("neither a static token nor a JWT"));
        }
        if (oidc && !sent.isEmpty() && !header.equals("Bearer " + sent)) {
            // OIDC's mechanism reads only "Bearer" and one space: the same header with more spaces or another case
            // of the scheme (RFC 9110, 11.4), as the static tokens are read, is handed on in that one form.
            context.request().headers().set("Authorization", "Bearer " + sent);
        }
        // anonymous: OIDC's mechanism, asked next when on, checks the bearer; else a call that needs a role answers 401
        return Uni.createFrom().optional(Optional.empty());
    }

    /**
     * Asked before OIDC's mechanism (Quarkus asks the highest first; OIDC's is 1001 unless configured, the default
     * 1000): a static token is never checked as a JWT, and OIDC is asked only when this one answers no identity.
     */
    @Override
    public int getPriority() {
        return DEFAULT_PRIORITY + 100;
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer"));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(); // the identity is made here, from the configuration: no identity provider is asked
    }

    /** Whether a viewer's token is configured: a 401's text then names both. */
    boolean viewerTokenSet() {
        return viewer.isPresent();
    }

    /** Whether the operator's token is configured: with OIDC alone a 401's text names only the issuer. */
    boolean operatorTokenSet() {
        return operator.isPresent();
    }

    /** Whether OIDC's mechanism takes the bearers that are not the static tokens. */
    boolean oidcEnabled() {
        return oidc;
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static SecurityIdentity identity(String who, String... roles) {
        return QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(who)).addRoles(Set.of(roles)).build();
    }

    /**
     * The credentials of a Bearer header, or "" for any other: the scheme's name is matched in any case and may
     * be followed by more than one space (RFC 9110, 11.4), as clients send it.
     */
    static String bearerToken(String header) {
        String scheme = "Bearer";
        if (header.length() <= scheme.length() || !header.regionMatches(true, 0, scheme, 0, scheme.length())
                || header.charAt(scheme.length()) != ' ') {
            return "";
        }
        return header.substring(scheme.length()).stripLeading();
    }
}
