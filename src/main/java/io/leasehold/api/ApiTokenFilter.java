package io.leasehold.api;

import io.leasehold.config.LeaseholdConfig;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** When {@code leasehold.api.token} is set, every call that changes something needs it as a Bearer token. */
public class ApiTokenFilter {

    private static final Set<String> READS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

    private final Optional<byte[]> token;

    public ApiTokenFilter(LeaseholdConfig config) {
        this.token = config.api().token().map(t -> t.getBytes(StandardCharsets.UTF_8));
    }

    @ServerRequestFilter(preMatching = true)
    public Optional<Response> requireToken(ContainerRequestContext request) {
        if (token.isEmpty() || READS.contains(request.getMethod())) {
            return Optional.empty();
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        String given = header == null ? "" : bearerToken(header);
        if (!given.isEmpty() && MessageDigest.isEqual(token.get(), given.getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        Response unauthorized = ApiErrors.answer(401, given.isEmpty()
                ? "this call needs Authorization: Bearer <leasehold.api.token>"
                : "the token of Authorization: Bearer is not leasehold.api.token's: send the service's own");
        return Optional.of(Response.fromResponse(unauthorized).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build());
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
