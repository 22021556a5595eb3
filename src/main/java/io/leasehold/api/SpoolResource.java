package io.leasehold.api;

import jakarta.annotation.security.RolesAllowed;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.SpoolBackend;
import io.leasehold.wire.SpoolView;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/** Counts per state, the age of the oldest pending item, and the entries left alone as not items. */
@Path("/spool")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "spool")
@RolesAllowed({ApiTokens.VIEWER, ApiTokens.OPERATOR}) // reads: either token; changes: the operator's (below)
public class SpoolResource {

    private final ItemStore store;
    private final SpoolBackend backend;

    public SpoolResource(ItemStore store, SpoolBackend backend) {
        this.store = store;
        this.backend = backend;
    }

    @Operation(operationId = "getSpool", summary = "Counts per state")
    @APIResponse(responseCode = "200", description = "counts per state, the oldest pending age, and entries left alone as not items")
    @GET
    public Uni<SpoolView> get() {
        return OnWorkers.io(() -> new SpoolView(store.counts(), backend.anomalies()));
    }
}
