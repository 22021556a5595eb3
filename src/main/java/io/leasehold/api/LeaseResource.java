package io.leasehold.api;

import jakarta.annotation.security.RolesAllowed;
import io.leasehold.lease.LeaseFace;
import io.leasehold.lease.Standing;
import jakarta.ws.rs.GET;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The controller lease as this instance sees it: mode, epoch, holder, last renewal, why, and any reset. */
@Path("/lease")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "lease")
@RolesAllowed({ApiTokens.VIEWER, ApiTokens.OPERATOR}) // reads: either token; changes: the operator's (below)
public class LeaseResource {

    private final LeaseFace lease;

    public LeaseResource(LeaseFace lease) {
        this.lease = lease;
    }

    @Operation(operationId = "getLease", summary = "The controller lease as this instance sees it")
    @APIResponse(responseCode = "200", description = "mode, epoch, holder, last renewal, and any store reset")
    @GET
    public Standing get() {
        return lease.standing();
    }
}
