package io.leasehold.api;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * What the description says of the answers' bodies beyond their Java types: which fields every answer carries
 * ({@code required}; the others are left out when empty) and which values a state takes ({@code enum}). Kept
 * here rather than annotated on the records, which belong to the spool and the drain, not to HTTP. And what the
 * annotations of the batch's body cannot say: one payload field of two in a {@link BatchLine}, and its example as text.
 */
final class WireSchemas {

    /** The fields every answer carries, of the bodies that leave their empty fields out (JsonInclude NON_NULL). */
    private static final Map<String, List<String>> REQUIRED = Map.of(
            "ItemView", List.of("id", "state"),
            "Created", List.of("id", "state"),
            "PastAttempt", List.of("attempt", "outcome"),
            "AttemptOutput", List.of("attempt", "handler", "endedAt", "parts"),
            "DrainState", List.of("paused"));
    /** Bodies that carry every field in every answer: each of their properties is required. */
    private static final List<String> WHOLE = List.of("Enqueued", "DrainReport", "SpoolView", "Purged",
            "Retried", "Part");

    /** The values a body's state takes. */
    private static final Map<String, List<String>> STATES = Map.of(
            "ItemView", List.of("pending", "claimed", "scheduled", "retrying", "done", "failed"),
            "Created", List.of("pending", "scheduled"));

    private WireSchemas() {
    }

    /**
     * SmallRye reads an example's value as JSON whatever its media type, and of two NDJSON lines keeps the first
     * line's object only (smallrye-open-api#2263): the batch's example is set back to the text it is.
     */
    private static void batchExample(OpenAPI api) {
        PathItem batch = api.getPaths() == null ? null : api.getPaths().getPathItem("/items/batch");
        if (batch == null || batch.getPOST() == null || batch.getPOST().getRequestBody() == null) {
            return;
        }
        MediaType ndjson = batch.getPOST().getRequestBody().getContent().getMediaType(BatchResource.NDJSON);
        if (ndjson != null && ndjson.getExamples() != null) {
            ndjson.getExamples().values().forEach(example -> example.setValue(BatchResource.EXAMPLE));
        }
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
        batchExample(api);
        Schema line = schemas.get(BatchLine.NAME);
        if (line != null) { // exactly one payload field, and no field the reader does not know (each a 400)
            line.setOneOf(List.of(OASFactory.createSchema().required(List.of("payload")),
                    OASFactory.createSchema().required(List.of("payloadBase64"))));
            line.setAdditionalPropertiesBoolean(false);
        }
        Schema part = schemas.get("Part"); // of an attempt's output: its tail or its start
        if (part != null && part.getProperties() != null && part.getProperties().get("kept") != null) {
            part.getProperties().get("kept").setEnumeration(List.of("tail", "start"));
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
