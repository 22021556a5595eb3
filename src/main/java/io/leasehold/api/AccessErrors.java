package io.leasehold.api;

import io.leasehold.core.ItemId;
import io.quarkus.oidc.OIDCException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * What a call without the role it needs is answered ({@link ApiTokens}, and OIDC's mechanism when on): 401 with
 * {@code WWW-Authenticate: Bearer}, telling a missing token from a wrong one, and 403 for a token whose roles do
 * not allow the call; each naming the key.
 */
@Singleton
public class AccessErrors {

    private static final String ISSUER = "an access token of the OIDC issuer (quarkus.oidc.auth-server-url)";

    private final ApiTokens tokens;
    private final SecurityIdentity identity;

    public AccessErrors(ApiTokens tokens, SecurityIdentity identity) {
        this.tokens = tokens;
        this.identity = identity;
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e, HttpHeaders headers) {
        String header = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
        boolean given = header != null && !ApiTokens.bearerToken(header).isEmpty();
        return given ? wrongToken() : challenge("this call needs Authorization: Bearer <" + accepted() + ">");
    }

    /**
     * OIDC's mechanism refused the bearer (no static token, and not a valid token of the issuer: expired, signed by
     * another key, another issuer or audience); Quarkus' own answer would be a bare 401. The reason is in the log
     * at DEBUG of io.quarkus.oidc.
     */
    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return wrongToken();
    }

    /**
     * OIDC could not check the token at all: the issuer was unreachable at start and still is (Quarkus tries again
     * at each call that brings a token). Unmapped, this is Quarkus' bare 500 with a stack trace.
     */
    @ServerExceptionMapper
    public Response issuerUnreachable(OIDCException e) {
        return Response.fromResponse(ApiErrors.answer(503, "the OIDC issuer (quarkus.oidc.auth-server-url) could not"
                + " check the token (" + e.getMessage() + "): see that it is up and that the URL is right"
                + (tokens.operatorTokenSet() ? "; leasehold.api.token works meanwhile" : "")))
                .header(HttpHeaders.RETRY_AFTER, "5").build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        if (!identity.isAnonymous() && !identity.hasRole(ApiTokens.VIEWER) && !identity.hasRole(ApiTokens.OPERATOR)) {
            String name = identity.getPrincipal() == null ? null : identity.getPrincipal().getName();
            String whose = name == null || name.isBlank() ? "" : " of '" + ItemId.printable(name) + "'";
            return ApiErrors.answer(403, "the OIDC access token" + whose + " has neither the role operator nor viewer"
                    + " (read from the claim quarkus.oidc.roles.role-claim-path names): give it one of them at the issuer");
        }
        String operator = tokens.operatorTokenSet() ? "the operator's token (leasehold.api.token)" : "";
        if (tokens.oidcEnabled()) {
            operator += (operator.isEmpty() ? "" : " or ") + "an OIDC access token with the role operator";
        }
        return ApiErrors.answer(403, "this call changes something: it needs " + operator + "; the viewer's"
                + (tokens.viewerTokenSet() ? " (leasehold.api.viewer-token)" : " role") + " only reads");
    }

    private Response wrongToken() {
        String statics = tokens.viewerTokenSet() ? "leasehold.api.token's nor leasehold.api.viewer-token's"
                : "leasehold.api.token's";
        if (!tokens.oidcEnabled()) {
            return challenge("the token of Authorization: Bearer is not " + statics + ": send the service's own");
        }
        String which = tokens.operatorTokenSet() ? statics + ", nor " + ISSUER : ISSUER;
        return challenge("the token of Authorization: Bearer is not " + which + " that is still valid (expired, or not"
                + " signed by that issuer): send " + (tokens.operatorTokenSet() ? "the service's own, or " : "")
                + "a fresh one from the issuer");
    }

    private String accepted() {
        String statics = !tokens.operatorTokenSet() ? ""
                : tokens.viewerTokenSet() ? "leasehold.api.token or leasehold.api.viewer-token" : "leasehold.api.token";
        if (!tokens.oidcEnabled()) {
            return statics;
        }
        return (statics.isEmpty() ? "" : statics + ", or ") + ISSUER + " with the role operator or viewer";
    }

    private static Response challenge(String message) {
        return Response.fromResponse(ApiErrors.answer(401, message)).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }
}
