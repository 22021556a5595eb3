package io.leasehold.api;

import jakarta.annotation.security.RolesAllowed;
import io.leasehold.drain.DrainReport;
import io.leasehold.drain.Drainer;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.mutiny.Uni;
import io.leasehold.lease.Holders;
import io.leasehold.wire.DrainState;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.Optional;

/**
 * One drain pass now, for a cron trigger (e.g. a Knative PingSource) when the service scales to zero; and the
 * fleet's pause: no instance starts a new attempt while it lasts (docs/operations.md, "Pausing the drain").
 */
@Path("/drain")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "drain")
@RolesAllowed({ApiTokens.VIEWER, ApiTokens.OPERATOR}) // reads: either token; changes: the operator's (below)
public class DrainResource {

    static final Duration DEFAULT_BUDGET = Duration.ofSeconds(30);
    static final Duration MAX_BUDGET = Duration.ofMinutes(15);

    private final Drainer drainer;

    public DrainResource(Drainer drainer) {
        this.drainer = drainer;
    }

    @Operation(operationId = "drainState", summary = "Whether the fleet's drain is paused, since when and by whom")
    @APIResponse(responseCode = "200", description = "the pause as this instance read it at its last poll tick or drain pass, or made it")
    @GET
    public DrainState state() {
        return DrainState.of(drainer.pause().current());
    }

    @Operation(operationId = "pauseDrain", summary = "Pause claiming for the whole fleet (kept in the spool): held work finishes, no new attempt starts")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "paused; this instance obeys at once, every other within its poll interval"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; nothing was written")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/pause")
    public Uni<DrainState> pause() {
        return setPaused(true);
    }

    @Operation(operationId = "resumeDrain", summary = "Resume claiming for the whole fleet")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "resumed; this instance claims at once, every other within its poll interval"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; nothing was written")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/resume")
    public Uni<DrainState> resume() {
        return setPaused(false);
    }

    private Uni<DrainState> setPaused(boolean paused) {
        return OnWorkers.io(() -> DrainState.of(Optional.of(drainer.setPaused(paused, "api on " + Holders.hostAndPid()))));
    }

    @Operation(operationId = "drain", summary = "One drain pass within a time budget")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "what the pass did: claimed, done, failed, handed back, whether the spool"
                + " was left idle, and whether the fleet's drain is paused (then the pass starts nothing)"),
        @APIResponse(responseCode = "400", description = "budget is not a duration of 1ms to 15m")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    public Uni<DrainReport> drain(
            @Parameter(description = "how long the pass may take, 1ms to 15m (PT30S, 30s, 2m)", schema = @Schema(
                    type = SchemaType.STRING, format = "duration", defaultValue = "30s", example = "2m"))
            @QueryParam("budget") String budget) {
        return drainer.drainPass(parse(budget));
    }

    static Duration parse(String budget) {
        if (budget == null || budget.isBlank()) {
            return DEFAULT_BUDGET;
        }
        Duration parsed;
        try {
            parsed = DurationConverter.parseDuration(budget.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("budget must be a duration such as 30s or 2m, got '" + budget + "'");
        }
        if (parsed == null || parsed.toMillis() < 1 || parsed.compareTo(MAX_BUDGET) > 0) {
            throw new IllegalArgumentException("budget must be at least 1ms and at most " + MAX_BUDGET.toMinutes() + "m");
        }
        return parsed;
    }
}
