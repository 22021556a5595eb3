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

    /** The fields every answer of each body carries. */
    private static final Map<String, List<String>> REQUIRED = Map.of(
            "ItemView", List.of("id", "state"),
            "Created", List.of("id", "state"),
            "Enqueued", List.of("items"),
            "PastAttempt", List.of("attempt", "outcome"),
            "DrainReport", List.of("claimed", "tookOver", "done", "failed", "retried", "lost", "handedBack", "idle",
                    "budgetMs"),
            "SpoolView", List.of("pending", "claimed", "scheduled", "retrying", "done", "failed", "oldestPendingAgeMs",
                    "ignored"),
            "Purged", List.of("purged"),
            "Retried", List.of("retried"));

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
        STATES.forEach((name, values) -> {
            Schema schema = schemas.get(name);
            Schema state = schema == null || schema.getProperties() == null ? null : schema.getProperties().get("state");
            if (state != null) {
                state.setEnumeration(List.copyOf(values));
            }
        });
    }
}
