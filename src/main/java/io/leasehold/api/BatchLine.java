package io.leasehold.api;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One line of a POST /items/batch body, for the API's description only: {@link NdjsonBatch} reads the lines
 * field by field and never binds this type. That exactly one of payload and payloadBase64 is given, and that no
 * other field is, {@link WireSchemas} adds (an annotation cannot say it).
 */
@Schema(name = BatchLine.NAME, type = SchemaType.OBJECT, description = "One line of a POST /items/batch body: one"
        + " item, a JSON object on a line of its own (no line break inside it). Exactly one of payload and payloadBase64,"
        + " no other field. A payload is at most leasehold.item.max-bytes bytes (413), a line at most 6 × max-bytes +"
        + " 1 KiB (413), a batch at most leasehold.item.max-batch lines (413); blank lines are skipped")
record BatchLine(
        @Schema(description = "the item's id; when absent the service makes one. Not batch or retry, and not an id"
                + " of an earlier line", pattern = ApiSchemas.ID_PATTERN, minLength = 1, maxLength = 128,
                example = "invoice-42")
        String id,
        @Schema(description = "the payload as text, stored as its UTF-8 bytes (no lone surrogate)", example = "hello")
        String payload,
        @Schema(description = "the payload's bytes in base64 (RFC 4648, no line breaks)", format = "byte",
                contentEncoding = "base64", example = "AAEC/w==")
        String payloadBase64) {

    static final String NAME = "BatchLine";
}
