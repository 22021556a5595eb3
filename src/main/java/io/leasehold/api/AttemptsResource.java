package io.leasehold.api;

import io.leasehold.core.ItemId;
import io.leasehold.spool.AttemptOutput;
import io.leasehold.spool.AttemptOutputs;
import io.leasehold.spool.ItemStore;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
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

/** An item's attempts: what each one's handler showed (docs/http-api.md, "An attempt's output"). */
@Path("/items/{id}/attempts")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "items")
public class AttemptsResource {

    private final AttemptOutputs outputs;
    private final ItemStore store;

    public AttemptsResource(AttemptOutputs outputs, ItemStore store) {
        this.outputs = outputs;
        this.store = store;
    }

    @Operation(operationId = "getAttemptOutput", summary = "What one attempt's handler showed: an exec child's stdout"
            + " and stderr tails and exit status, an http answer's status and the start of its body")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "the output kept for that attempt (each part at most 4 KiB)"),
        @APIResponse(responseCode = "400", description = "the id breaks the grammar, or n is not a whole number from 1"),
        @APIResponse(responseCode = "404", description = "no such item, or no output is kept for that attempt (no such"
                + " attempt ran, its handler showed nothing, it is older than the item's latest 10 attempts, or the item was"
                + " retried by hand since)"),
        @APIResponse(responseCode = "409", description = "what is kept under that attempt is not an output leasehold wrote")
    })
    @GET
    @RolesAllowed({ApiTokens.VIEWER, ApiTokens.OPERATOR})
    @Path("/{n}/output")
    public Uni<AttemptOutput> output(
            @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.ID_PATTERN, maxLength = 128))
            @PathParam("id") String id,
            @Parameter(description = "the attempt's number, as the item's history counts it",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "999999999"))
            @PathParam("n") String n) {
        ItemId.require(id);
        int attempt = attemptNumber(n);
        return OnWorkers.io(() -> {
            if (store.lookup(id).isEmpty()) {
                throw new ItemStore.NoSuchItemException(id);
            }
            return outputs.read(id, attempt).orElseThrow(() -> new ItemStore.NoSuchItemException(id,
                    "no output is kept for attempt " + attempt + " of item '" + id + "': no such attempt ran, its handler"
                    + " showed nothing, it is older than the latest " + AttemptOutputs.KEPT + ", or the item was retried"
                    + " by hand since; see its history with GET /items/" + id));
        });
    }

    private static int attemptNumber(String n) {
        if (n == null || !n.matches("[1-9][0-9]{0,8}")) {
            throw new IllegalArgumentException("an attempt is a whole number from 1, as the item's history counts it, got '"
                    + ItemId.printable(String.valueOf(n)) + "'");
        }
        return Integer.parseInt(n);
    }
}
