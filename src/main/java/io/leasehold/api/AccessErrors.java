package io.leasehold.api;

import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * What a call without the role it needs is answered ({@link ApiTokens}): 401 with {@code WWW-Authenticate: Bearer},
 * telling a missing token from a wrong one, and 403 for the viewer's token on a change; each naming the key.
 */
@Singleton
public class AccessErrors {

    private final ApiTokens tokens;

    public AccessErrors(ApiTokens tokens) {
        this.tokens = tokens;
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e, HttpHeaders headers) {
        String header = headers.getHeaderString(HttpHeaders.AUTHORIZATION);
        boolean given = header != null && !ApiTokens.bearerToken(header).isEmpty();
        boolean viewer = tokens.viewerTokenSet();
        Response answer = ApiErrors.answer(401, given
                ? "the token of Authorization: Bearer is not " + (viewer
                        ? "leasehold.api.token's nor leasehold.api.viewer-token's" : "leasehold.api.token's")
                        + ": send the service's own"
                : "this call needs Authorization: Bearer <" + (viewer ? "leasehold.api.token or leasehold.api.viewer-token"
                        : "leasehold.api.token") + ">");
        return Response.fromResponse(answer).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return ApiErrors.answer(403, "this call changes something: it needs the operator's token (leasehold.api.token);"
                + " the viewer's (leasehold.api.viewer-token) only reads");
    }
}
