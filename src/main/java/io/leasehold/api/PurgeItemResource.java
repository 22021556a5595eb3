package io.leasehold.api;

import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemStore;
import io.leasehold.wire.Purged;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The purge of one settled item, beside {@link ItemsResource} (which keeps the other calls on items): through
 * {@link ItemStore#purgeSettled}, the call of the command line's {@code items purge ID}.
 */
@Path("/items/{id}/purge")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "items")
public class PurgeItemResource {

    private final ItemStore store;

    public PurgeItemResource(ItemStore store) {
        this.store = store;
    }

    @Operation(operationId = "purgeItem", summary = "Purge one settled (done or failed) item; its id may be enqueued again")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "{\"purged\":1}: its payload, state and history are gone, and its id may be enqueued again"),
        @APIResponse(responseCode = "400", description = "the id breaks the grammar"),
        @APIResponse(responseCode = "404", description = "no such item (never enqueued, or purged already: of two purges at once, one answers 200, the other 404)"),
        @APIResponse(responseCode = "409", description = "the item is not settled (pending, scheduled: cancel it first; claimed, retrying: purge it once it is done or failed)"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; the item stays")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    public Uni<Purged> purge(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.ID_PATTERN, maxLength = 128)) @PathParam("id") String id) {
        ItemId.require(id);
        return OnWorkers.io(() -> {
            store.purgeSettled(id);
            return new Purged(1);
        });
    }
}
