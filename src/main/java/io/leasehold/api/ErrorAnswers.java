package io.leasehold.api;

import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * The error answers every call of the API may give, added to each operation of the description (the
 * ones particular to a call are annotated on it, code and reason only), each given the {@link ApiError} body;
 * and the guard of every call ({@link ApiTokens}): the bearer scheme of the API's tokens, on each call, with the
 * 401 it answers, and the 403 of a viewer's token on a call that changes something. The bodies' required fields and enums: {@link WireSchemas}.
 */
public class ErrorAnswers implements OASFilter {

    /** The body of an error answer, as {@link ApiError} writes it. */
    static final String SCHEMA = "ApiError";

    /** The security scheme's name in the description: the bearer token of {@code leasehold.api.token}. */
    static final String TOKEN_SCHEME = "apiToken";
    private static final String UNAUTHORIZED = "leasehold.api.token is set, or OIDC is on, and the call did not carry "
            + "Authorization: Bearer with one of the service's tokens or a valid access token of the OIDC issuer";
    private static final String FORBIDDEN = "the viewer's token (leasehold.api.viewer-token), or an OIDC token with the"
            + " role viewer, only reads: this call needs the operator's (leasehold.api.token, or the role operator);"
            + " an OIDC token with neither role is refused every call";
    private static final Map<String, String> COMMON = Map.of(
            "406", "the Accept header asks for something other than what the call answers (JSON; a payload's bytes for GET /items/{id}/payload)",
            "500", "the spool or the lease failed in a way not listed here; the reason is in the body and the log",
            "503", "the spool is unreachable for now (NATS reconnecting, a volume gone), too many uploads run at once, or"
                    + " the OIDC issuer cannot be reached to check a token: Retry-After says when to try again");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        openAPI.getComponents().addSchema(SCHEMA, OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("An error answer").addProperty("status", OASFactory.createSchema()
                        .addType(Schema.SchemaType.INTEGER).description("the HTTP status, again"))
                .addProperty("error", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                        .description("what went wrong, and what to do about it")));
        openAPI.getComponents().addSecurityScheme(TOKEN_SCHEME, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer")
                .description("leasehold.api.token (the operator's: every call) or leasehold.api.viewer-token (the"
                        + " viewer's: reads only), as Authorization: Bearer <token>; or, with quarkus.oidc.* set, an OIDC"
                        + " issuer's access token with the role operator or viewer; with neither token set and OIDC off"
                        + " the API is open"));
        WireSchemas.refine(openAPI);
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            if (path.getKey().startsWith("/q/")) {
                continue; // Quarkus' own endpoints describe themselves
            }
            for (Map.Entry<PathItem.HttpMethod, Operation> op : path.getValue().getOperations().entrySet()) {
                withErrorBodies(op.getValue());
                COMMON.forEach((code, why) -> add(op.getValue(), code, why));
                add(op.getValue(), "401", UNAUTHORIZED);
                op.getValue().setSecurity(null);
                op.getValue().addSecurityRequirement(OASFactory.createSecurityRequirement().addScheme(TOKEN_SCHEME));
                if (op.getKey() != PathItem.HttpMethod.GET && op.getKey() != PathItem.HttpMethod.HEAD
                        && op.getKey() != PathItem.HttpMethod.OPTIONS) {
                    add(op.getValue(), "403", FORBIDDEN);
                } else if (op.getValue().getResponses() != null) {
                    op.getValue().getResponses().removeAPIResponse("403"); // a read takes either token: never 403
                }
            }
        }
    }

    /** The calls' own error answers are annotated with a code and a reason only: the body is the same for all. */
    private static void withErrorBodies(Operation op) {
        if (op.getResponses() == null || op.getResponses().getAPIResponses() == null) {
            return;
        }
        op.getResponses().getAPIResponses().forEach((code, response) -> {
            if ((code.startsWith("4") || code.startsWith("5")) && response.getContent() == null) {
                response.setContent(error(response.getDescription()).getContent());
            }
        });
    }

    private static void add(Operation op, String code, String why) {
        if (op.getResponses() != null && op.getResponses().getAPIResponse(code) == null) {
            op.getResponses().addAPIResponse(code, error(why));
        }
    }

    static APIResponse error(String description) {
        Content body = OASFactory.createContent().addMediaType("application/json", OASFactory.createMediaType()
                .schema(OASFactory.createSchema().ref(SCHEMA)));
        return OASFactory.createAPIResponse().description(description).content(body);
    }

}
