package io.leasehold.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The controller lease as this instance sees it. Without a bus every act carries epoch 0. */
@Path("/lease")
@Produces(MediaType.APPLICATION_JSON)
public class LeaseResource {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LeaseView(String mode, long epoch, Object holder, String renewedAt, String reason, Object reset) {
    }

    @GET
    public LeaseView get() {
        return new LeaseView("no-bus", 0, null, null,
                "no leasehold.nats.url is configured: acting without a controller lease, epoch 0", null);
    }
}
