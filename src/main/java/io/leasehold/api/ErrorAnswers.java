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
 * and the guard of the calls that change something: the bearer scheme of {@code leasehold.api.token}, required
 * by each of them, with the 401 it answers. The bodies' required fields and enums: {@link WireSchemas}.
 */
public class ErrorAnswers implements OASFilter {

    /** The body of an error answer, as {@link ApiError} writes it. */
    static final String SCHEMA = "ApiError";

    /** The security scheme's name in the description: the bearer token of {@code leasehold.api.token}. */
    static final String TOKEN_SCHEME = "apiToken";
    /** Reads need no token (ApiTokenFilter): only calls that change something are answered 401. */
    private static final String UNAUTHORIZED = "leasehold.api.token is set and the call did not carry "
            + "Authorization: Bearer <token>";
    private static final Map<String, String> COMMON = Map.of(
            "406", "the Accept header asks for something other than JSON, the only answer the call gives",
            "500", "the spool or the lease failed in a way not listed here; the reason is in the body and the log",
            "503", "the spool is unreachable for now (NATS reconnecting, a volume gone), or too many uploads run at once: Retry-After says when to try again");

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
                .description("leasehold.api.token: when it is set, every call that changes something needs it as "
                        + "Authorization: Bearer <token>; reads never do"));
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
                if (op.getKey() != PathItem.HttpMethod.GET && op.getKey() != PathItem.HttpMethod.HEAD
                        && op.getKey() != PathItem.HttpMethod.OPTIONS) {
                    add(op.getValue(), "401", UNAUTHORIZED);
                    op.getValue().addSecurityRequirement(OASFactory.createSecurityRequirement().addScheme(TOKEN_SCHEME));
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
