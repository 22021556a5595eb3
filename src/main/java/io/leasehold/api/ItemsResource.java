package io.leasehold.api;

import jakarta.annotation.security.RolesAllowed;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemState;
import io.leasehold.stats.ActivityStats;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.BulkActions;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;
import org.jboss.resteasy.reactive.RestResponse;
import io.leasehold.wire.Created;
import io.leasehold.wire.Retried;
import io.leasehold.wire.Purged;
import io.leasehold.wire.QueryTimes;

/** Items: enqueue, look up, list, cancel, retry; retry and purge in bulk. */
@Path("/items")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "items")
@RolesAllowed({ApiTokens.VIEWER, ApiTokens.OPERATOR}) // reads: either token; changes: the operator's (below)
public class ItemsResource {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 10_000;

    private final ActivityStats stats;

    private final ItemStore store;
    private final long maxBytes;
    private final UploadSlots uploads;
    private final Clock clock;
    private final Duration uploadTimeout;

    private final BulkActions bulk;

    public ItemsResource(ItemStore store, LeaseholdConfig config, UploadSlots uploads, Clock clock, BulkActions bulk,
            ActivityStats stats) {
        this.store = store;
        this.stats = stats;
        this.bulk = bulk;
        this.maxBytes = config.item().maxBytes().asLongValue();
        this.uploads = uploads;
        this.clock = clock;
        this.uploadTimeout = config.item().uploadTimeout();
    }

    /**
     * The body is copied to tmp/ as it arrives and counted on the way, so an oversized body is refused
     * without being held in memory; a declared Content-Length over the limit is refused before reading.
     */
    @Operation(operationId = "enqueueItem", summary = "Enqueue one item; the body is its payload. With notBefore or delay it is not run before then")
    @APIResponses({
        @APIResponse(responseCode = "201", description = "enqueued: durably pending, or scheduled (with runAt) when notBefore or delay is in the future; Location names the item",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Created.class))),
        @APIResponse(responseCode = "400", description = "the id breaks the grammar (letters, digits, . _ -, at most 128) or is batch or retry (the names of calls under /items), or notBefore or delay is bad: both given, not an ISO-8601 instant, not a duration, a negative delay, or past the year 9999; nothing was written"),
        @APIResponse(responseCode = "408", description = "the upload broke off or outlasted leasehold.item.upload-timeout; nothing was kept"),
        @APIResponse(responseCode = "409", description = "the id is known (any state, or still uploading, or purged not yet)"),
        @APIResponse(responseCode = "413", description = "the body is larger than leasehold.item.max-bytes"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; nothing was written")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Blocking
    @Consumes(MediaType.WILDCARD)
    public RestResponse<Created> enqueue(
            @Parameter(description = "the item's id; when absent the service makes one", schema = @Schema(
                    type = SchemaType.STRING, pattern = ApiSchemas.ID_PATTERN, maxLength = 128, example = "invoice-42"))
            @QueryParam("id") String id,
            @Parameter(description = "an ISO-8601 instant (2026-12-01T15:30:00Z, or with an offset): the item is not run before it; one in the past runs now",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time", example = "2026-12-01T15:30:00Z"))
            @QueryParam("notBefore") String notBefore,
            @Parameter(description = "a duration (PT30S, 30s, 90m, 2h, 7d): the item is not run before now plus it",
                    schema = @Schema(type = SchemaType.STRING, format = "duration", example = "90m"))
            @QueryParam("delay") String delay,
            @Parameter(hidden = true) @HeaderParam(HttpHeaders.CONTENT_LENGTH) Long length, @Context UriInfo uri, InputStream body)
            throws IOException {
        // Quarkus REST hands "?id=" over as null, the same as no id at all; an empty id is still a bad id.
        id = given(uri, "id", id);
        Instant runAt = QueryTimes.runAt(given(uri, "notBefore", notBefore), given(uri, "delay", delay), clock.now());
        String itemId = id == null ? store.newId() : AddressableIds.require(id);
        if (length != null && length > maxBytes) {
            throw new ItemStore.PayloadTooLargeException(maxBytes);
        }
        uploads.acquire();
        ItemView created;
        try {
            InputStream bounded = new BoundedUpload(body == null ? InputStream.nullInputStream() : body, clock,
                    uploadTimeout);
            created = store.enqueue(itemId, bounded, maxBytes, runAt);
        } finally {
            uploads.release();
        }
        stats.enqueued(1);
        // Typed, so that Quarkus sees the body's type and keeps it for a native image.
        return RestResponse.ResponseBuilder.<Created>created(URI.create("/items/" + itemId))
                .entity(new Created(created.id(), created.state(), created.runAt())).build();
    }

    /** "?name=" arrives as null, like no value at all: it is an empty value, which each parameter refuses. */
    private static String given(UriInfo uri, String name, String value) {
        return value == null && uri.getQueryParameters().containsKey(name) ? "" : value;
    }

    @Operation(operationId = "getItem", summary = "One item")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "the item: its state, its times (enqueuedAt, settledAt, runAt), the holder of its claim and the history of its latest attempts"),
        @APIResponse(responseCode = "400", description = "the id breaks the grammar"),
        @APIResponse(responseCode = "404", description = "no such item (never enqueued, or purged)")
    })
    @GET
    @Path("/{id}")
    public Uni<ItemView> get(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.ID_PATTERN, maxLength = 128)) @PathParam("id") String id) {
        ItemId.require(id);
        return OnWorkers.io(() -> store.lookup(id)
                .orElseThrow(() -> new ItemStore.NoSuchItemException(id)));
    }

    @Operation(operationId = "getPayload", summary = "One item's payload, as it was enqueued")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "the payload's bytes, whatever the item's state",
                content = @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM,
                        schema = @Schema(type = SchemaType.STRING, format = "binary"))),
        @APIResponse(responseCode = "400", description = "the id breaks the grammar"),
        @APIResponse(responseCode = "404", description = "no such item (never enqueued, or purged)"),
        @APIResponse(responseCode = "409", description = "what is under the id is no item the spool can trust (a link, a FIFO): not read")
    })
    @GET
    @Path("/{id}/payload")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Uni<byte[]> payload(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.ID_PATTERN, maxLength = 128)) @PathParam("id") String id) {
        ItemId.require(id);
        return OnWorkers.io(() -> store.payload(id).orElseThrow(() -> new ItemStore.NoSuchItemException(id)));
    }

    @Operation(operationId = "listItems", summary = "Items in one state, a page at a time, optionally searched")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "up to limit items in that state, oldest first (scheduled and"
                + " retrying: soonest first); when more follow, a Link header with rel=\"next\" names the next page",
                headers = @org.eclipse.microprofile.openapi.annotations.headers.Header(name = "Link",
                        description = "</items?...&after=CURSOR>; rel=\"next\" while more items follow (RFC 8288)",
                        schema = @Schema(type = SchemaType.STRING))),
        @APIResponse(responseCode = "400", description = "state is not pending, claimed, scheduled, retrying, done or failed,"
                + " limit is not 1 to 10000, after is not a cursor a Link header gave, or q is over 200 characters")
    })
    @GET
    public Uni<RestResponse<List<ItemView>>> list(
            @Parameter(description = "pending (the default), claimed (held now), scheduled, retrying (both parked, soonest runAt first), done or failed",
                    schema = @Schema(type = SchemaType.STRING, defaultValue = "pending",
                            enumeration = {"pending", "claimed", "scheduled", "retrying", "done", "failed"}))
            @QueryParam("state") String state,
            @Parameter(description = "at most this many items", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "10000", defaultValue = "" + DEFAULT_LIMIT))
            @QueryParam("limit") String limit,
            @Parameter(description = "only items whose id starts with this text (ids are case-sensitive), or whose reason contains it in any case",
                    schema = @Schema(type = SchemaType.STRING, maxLength = ItemPages.MAX_TEXT, example = "quota"))
            @QueryParam("q") String q,
            @Parameter(description = "the cursor of the next page, as the previous page's Link header gave it",
                    schema = @Schema(type = SchemaType.STRING))
            @QueryParam("after") String after,
            @Context UriInfo uri) {
        return ItemPages.page(store, state == null ? "pending" : state, limit == null ? DEFAULT_LIMIT : parseLimit(limit),
                after, q, uri);
    }

    /** Parsed here, not by JAX-RS, which answers an unparsable query parameter with 404. */
    private static int parseLimit(String limit) {
        int n;
        try {
            n = Integer.parseInt(limit.trim());
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 1 || n > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be a whole number between 1 and " + MAX_LIMIT
                    + ", got '" + ItemId.printable(limit) + "'");
        }
        return n;
    }

    @Operation(operationId = "cancelItem", summary = "Cancel a pending or scheduled item")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "cancelled: the item is in failed with the reason cancelled"),
        @APIResponse(responseCode = "400", description = "the id breaks the grammar"),
        @APIResponse(responseCode = "404", description = "no such item"),
        @APIResponse(responseCode = "409", description = "the item is neither pending nor scheduled (claimed, retrying, settled)"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full: the cancel's record could not be written, the item stays pending")
    })
    @DELETE
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/{id}")
    public Uni<ItemView> cancel(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.ID_PATTERN, maxLength = 128)) @PathParam("id") String id) {
        ItemId.require(id);
        return OnWorkers.io(() -> store.cancel(id));
    }

    @Operation(operationId = "retryItem", summary = "Retry a failed item")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "back in pending, its attempts counted afresh"),
        @APIResponse(responseCode = "400", description = "the id breaks the grammar"),
        @APIResponse(responseCode = "404", description = "no such item"),
        @APIResponse(responseCode = "409", description = "the item is not failed"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; the item stays failed")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/{id}/retry")
    public Uni<ItemView> retry(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.ID_PATTERN, maxLength = 128)) @PathParam("id") String id) {
        ItemId.require(id);
        return OnWorkers.io(() -> store.retry(id));
    }

    @Operation(operationId = "retryFailedItems", summary = "Retry every failed item, or those whose reason contains a text")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "how many failed items this call moved back to pending (an item another mover had first is not counted)"),
        @APIResponse(responseCode = "400", description = "state is not failed"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; the items moved before it stay moved")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/retry")
    public Uni<Retried> retryAll(
            @Parameter(required = true, description = "failed: only failed items are retried",
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"failed"}))
            @QueryParam("state") String state,
            @Parameter(description = "only the failed items whose reason contains this text (case-sensitive)")
            @QueryParam("reason") String reason) {
        if (!"failed".equals(state)) {
            throw new IllegalArgumentException("state must be failed (only failed items are retried), got "
                    + shown(state));
        }
        return Uni.createFrom().completionStage(() -> bulk.retryFailed(reason)).map(Retried::new);
    }

    @Operation(operationId = "purgeItems", summary = "Purge settled items in one state, or those settled longer ago than olderThan")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "how many items this call removed; their ids may be enqueued again"),
        @APIResponse(responseCode = "400", description = "state is not done or failed, or olderThan is not a duration"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; the items removed before it stay removed")
    })
    @DELETE
    @RolesAllowed(ApiTokens.OPERATOR)
    public Uni<Purged> purgeAll(
            @Parameter(required = true, description = "done or failed: only settled items are purged",
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"done", "failed"}))
            @QueryParam("state") String state,
            @Parameter(description = "only the items settled longer ago than this duration (PT1H, 90m, 7d)",
                    schema = @Schema(type = SchemaType.STRING, format = "duration", example = "7d"))
            @QueryParam("olderThan") String olderThan,
            @Context UriInfo uri) {
        olderThan = given(uri, "olderThan", olderThan);
        ItemState settled = ItemState.parse(state == null ? "" : state)
                .filter(s -> s == ItemState.DONE || s == ItemState.FAILED)
                .orElseThrow(() -> new IllegalArgumentException("state must be done or failed (only settled items are "
                        + "purged), got " + shown(state)));
        Instant before = olderThan == null ? null : QueryTimes.ago(clock.now(), QueryTimes.duration("olderThan", olderThan));
        return Uni.createFrom().completionStage(() -> bulk.purge(settled, before, BulkActions.Slice.WHOLE))
                .map(outcome -> new Purged(outcome.moved()));
    }

    private static String shown(String value) {
        return value == null ? "none" : "'" + ItemId.printable(value) + "'";
    }
}
