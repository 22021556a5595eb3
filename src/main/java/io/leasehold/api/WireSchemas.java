package io.leasehold.api;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * What the description says of the answers' bodies beyond their Java types: which fields every answer carries
 * ({@code required}; the others are left out when empty) and which values a state takes ({@code enum}). Kept
 * here rather than annotated on the records, which belong to the spool and the drain, not to HTTP.
 */
final class WireSchemas {

    /** The fields every answer carries, of the bodies that leave their empty fields out (JsonInclude NON_NULL). */
    private static final Map<String, List<String>> REQUIRED = Map.of(
            "ItemView", List.of("id", "state"),
            "Created", List.of("id", "state"),
            "PastAttempt", List.of("attempt", "outcome"),
            "DrainState", List.of("paused"));
    /** Bodies that carry every field in every answer: each of their properties is required. */
    private static final List<String> WHOLE = List.of("Enqueued", "DrainReport", "SpoolView", "Purged",
            "Retried");

    /** The values a body's state takes. */
    private static final Map<String, List<String>> STATES = Map.of(
            "ItemView", List.of("pending", "claimed", "scheduled", "retrying", "done", "failed"),
            "Created", List.of("pending", "scheduled"));

    private WireSchemas() {
    }

    static void refine(OpenAPI api) {
        if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        REQUIRED.forEach((name, fields) -> {
            Schema schema = schemas.get(name);
            if (schema != null) {
                schema.setRequired(fields);
            }
        });
        for (String name : WHOLE) {
            Schema schema = schemas.get(name);
            if (schema != null && schema.getProperties() != null) {
                schema.setRequired(List.copyOf(schema.getProperties().keySet()));
            }
        }
        STATES.forEach((name, values) -> {
            Schema schema = schemas.get(name);
            Schema state = schema == null || schema.getProperties() == null ? null : schema.getProperties().get("state");
            if (state != null) {
                state.setEnumeration(List.copyOf(values));
            }
        });
    }
}
