package io.leasehold.api;

import jakarta.annotation.security.RolesAllowed;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.Clock;
import io.leasehold.spool.ItemState;
import io.leasehold.stats.ActivityStats;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;
import org.jboss.resteasy.reactive.RestResponse;
import io.leasehold.wire.Created;

/**
 * POST /items/batch: NDJSON, all or nothing (docs/http-api.md, The calls). The body is read line by line into a staged
 * batch ({@link NdjsonBatch}), never held whole; a batch takes one upload slot and the upload bound of
 * a single upload.
 */
@Path("/items/batch")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "items")
public class BatchResource {

    static final String NDJSON = "application/x-ndjson";
    /** The description's example of a body: WireSchemas keeps it text, OpenApiTest posts it. */
    static final String EXAMPLE = "{\"id\":\"invoice-42\",\"payload\":\"hello\"}\n{\"payloadBase64\":\"AAEC/w==\"}\n";

    private final ItemStore store;
    private final ActivityStats stats;
    private final UploadSlots uploads;
    private final Clock clock;
    private final Duration uploadTimeout;
    private final long maxBytes;
    private final NdjsonBatch reader;

    public BatchResource(ItemStore store, LeaseholdConfig config, UploadSlots uploads, Clock clock, ActivityStats stats) {
        this.store = store;
        this.stats = stats;
        this.uploads = uploads;
        this.clock = clock;
        this.uploadTimeout = config.item().uploadTimeout();
        this.maxBytes = config.item().maxBytes().asLongValue();
        this.reader = new NdjsonBatch(maxBytes, config.item().maxBatch());
    }

    @Operation(operationId = "enqueueBatch", summary = "Enqueue a batch, all or nothing (NDJSON)")
    @APIResponses({
        @APIResponse(responseCode = "201", description = "every line enqueued, in line order",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Enqueued.class))),
        @APIResponse(responseCode = "400", description = "a line is not a JSON object of id and payload, an id breaks the grammar, is batch or retry, or appears twice (the line is named); or notBefore or delay was given (a batch is never scheduled: schedule items one by one)"),
        @APIResponse(responseCode = "408", description = "the upload broke off or outlasted leasehold.item.upload-timeout; nothing was kept"),
        @APIResponse(responseCode = "409", description = "an id is known (the line is named); nothing was kept"),
        @APIResponse(responseCode = "415", description = "the body is not application/x-ndjson"),
        @APIResponse(responseCode = "413", description = "a payload is larger than leasehold.item.max-bytes, or more lines than leasehold.item.max-batch"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; nothing was written")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Blocking
    @Consumes(NDJSON)
    public RestResponse<Enqueued> enqueue(@Context UriInfo uri,
            // A string, as OpenAPI has no schema for a sequence of lines: x-ndjson-line names each line's own.
            @RequestBody(required = true, description = "NDJSON: one item a line, each line one JSON object as "
                    + BatchLine.NAME + " describes (#/components/schemas/" + BatchLine.NAME + ")",
                    content = @Content(mediaType = NDJSON, schema = @Schema(type = SchemaType.STRING,
                            description = "lines separated by \\n (or \\r\\n), each one " + BatchLine.NAME
                                    + " object; blank lines are skipped",
                            extensions = @Extension(name = "x-ndjson-line", parseValue = true,
                                    value = "{\"$ref\":\"#/components/schemas/" + BatchLine.NAME + "\"}")),
                            examples = @ExampleObject(name = "twoItems", summary = "one text payload, one in base64 under an id the service makes",
                                    value = EXAMPLE))) InputStream body) throws IOException {
        // Refused rather than ignored: an item sent to wait must never run at once.
        if (uri.getQueryParameters().containsKey("notBefore") || uri.getQueryParameters().containsKey("delay")) {
            throw new IllegalArgumentException("POST /items/batch takes no notBefore or delay: a batch is enqueued "
                    + "to run now; schedule items one by one with POST /items?notBefore=... or ?delay=...");
        }
        uploads.acquire();
        List<String> ids;
        try (StagedBatch batch = store.stageBatch(maxBytes)) {
            try {
                reader.read(new BoundedUpload(body == null ? InputStream.nullInputStream() : body, clock,
                        uploadTimeout), batch);
            } catch (BoundedUpload.UploadIncompleteException e) { // a known id read before the break answers first
                throw NdjsonBatch.firstRefused(batch, e);
            }
            try {
                ids = batch.commit();
            } catch (ItemStore.DuplicateItemException e) {
                if (e.line() > 0) { // a store that hears of its creates late names the line
                    throw NdjsonBatch.known(e, e.line());
                }
                throw e;
            }
        } finally {
            uploads.release();
        }
        stats.enqueued(ids.size());
        String pending = ItemState.PENDING.label();
        return RestResponse.status(RestResponse.Status.CREATED,
                new Enqueued(ids.stream().map(id -> new Created(id, pending)).toList()));
    }

    /** The answer: every item, in line order. */
    record Enqueued(List<Created> items) {
    }
}
