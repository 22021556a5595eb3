package io.leasehold.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.leasehold.spool.Anomaly;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.SpoolAnomalies;
import io.leasehold.spool.SpoolCounts;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** Counts per folder, the age of the oldest pending item, and the entries left alone as not items. */
@Path("/spool")
@Produces(MediaType.APPLICATION_JSON)
public class SpoolResource {

    private final ItemStore store;
    private final SpoolAnomalies anomalies;

    public SpoolResource(ItemStore store, SpoolAnomalies anomalies) {
        this.store = store;
        this.anomalies = anomalies;
    }

    public record SpoolView(@JsonUnwrapped SpoolCounts counts, List<Anomaly> ignored) {
    }

    @Operation(summary = "Counts per state")
    @APIResponse(responseCode = "200", description = "counts per state, the oldest pending age, and entries left alone as not items")
    @GET
    public Uni<SpoolView> get() {
        return OnWorkers.io(() -> new SpoolView(store.counts(), anomalies.list()));
    }
}
