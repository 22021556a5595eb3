package io.leasehold.api;

import jakarta.annotation.security.RolesAllowed;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.schedule.ScheduleView;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import io.leasehold.wire.Created;
import io.leasehold.wire.ScheduleAnswer;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;
import org.jboss.resteasy.reactive.RestResponse;

/** The recurring schedules: what each will fire next and last fired, a fire by hand, a pause or resume for the fleet. */
@Path("/schedules")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "schedules")
@RolesAllowed({ApiTokens.VIEWER, ApiTokens.OPERATOR}) // reads: either token; changes: the operator's (below)
public class SchedulesResource {

    private static final String NAME = "the schedule's name, as configured under leasehold.schedules";

    private final ScheduleFiring firing;
    private final ItemStore store;

    public SchedulesResource(ScheduleFiring firing, ItemStore store) {
        this.firing = firing;
        this.store = store;
    }

    @Operation(operationId = "listSchedules", summary = "Every schedule: its rule, next fire time, last item and its state, paused, late")
    @APIResponse(responseCode = "200", description = "the schedules in name order (an empty list when none is configured)")
    @GET
    public Uni<List<ScheduleAnswer>> list() {
        List<ScheduleView> views = firing.views();
        return OnWorkers.io(() -> {
            List<ScheduleAnswer> out = new ArrayList<>();
            for (ScheduleView v : views) {
                String state = null;
                if (v.mark() != null && v.mark().lastFired() != null) {
                    state = store.lookup(v.mark().lastFired().id()).map(ItemView::state).orElse("purged");
                }
                out.add(ScheduleAnswer.of(v, state));
            }
            return out;
        });
    }

    @Operation(operationId = "triggerSchedule", summary = "Fire a schedule now, by hand: one item named <name>.manual-<instant>, whatever its pause")
    @APIResponses({
        @APIResponse(responseCode = "201", description = "the item is durably pending",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Created.class))),
        @APIResponse(responseCode = "404", description = "no schedule of that name is configured"),
        @APIResponse(responseCode = "409", description = "an item of that instant is known already (two triggers in one millisecond)"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; nothing was written")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/{name}/trigger")
    public Uni<RestResponse<Created>> trigger(
            @Parameter(description = NAME, schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.SCHEDULE_NAME_PATTERN))
            @PathParam("name") String name) {
        RecurringSchedule s = known(name);
        return OnWorkers.io(() -> {
            String id = firing.trigger(s);
            return RestResponse.ResponseBuilder.<Created>created(URI.create("/items/" + id))
                    .entity(new Created(id, "pending")).build();
        });
    }

    @Operation(operationId = "pauseSchedule", summary = "Pause a schedule for the whole fleet (kept in the spool): its fire times pass without items")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "paused; every instance's next tick obeys"),
        @APIResponse(responseCode = "404", description = "no schedule of that name is configured"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; nothing was written")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/{name}/pause")
    public Uni<ScheduleAnswer.PausedBy> pause(
            @Parameter(description = NAME, schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.SCHEDULE_NAME_PATTERN))
            @PathParam("name") String name) {
        return setPaused(name, true);
    }

    @Operation(operationId = "resumeSchedule", summary = "Resume a paused schedule for the whole fleet: its next fire time fires, none of those paused over")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "resumed; every instance's next tick obeys"),
        @APIResponse(responseCode = "404", description = "no schedule of that name is configured"),
        @APIResponse(responseCode = "507", description = "the spool's filesystem is full; nothing was written")
    })
    @POST
    @RolesAllowed(ApiTokens.OPERATOR)
    @Path("/{name}/resume")
    public Uni<ScheduleAnswer.PausedBy> resume(
            @Parameter(description = NAME, schema = @Schema(type = SchemaType.STRING, pattern = ApiSchemas.SCHEDULE_NAME_PATTERN))
            @PathParam("name") String name) {
        return setPaused(name, false);
    }

    private Uni<ScheduleAnswer.PausedBy> setPaused(String name, boolean paused) {
        RecurringSchedule s = known(name);
        return OnWorkers.io(() -> {
            var pause = firing.setPaused(s, paused, "api");
            return new ScheduleAnswer.PausedBy(pause.paused(), pause.since(), pause.by());
        });
    }

    private RecurringSchedule known(String name) {
        return firing.schedule(name).orElseThrow(() -> new NotFoundException("no schedule '" + name + "'"
                + (firing.schedules().isEmpty() ? ": none is configured (leasehold.schedules.\"<name>\".cron or .every)"
                        : "; configured: " + firing.schedules().stream().map(RecurringSchedule::name)
                                .collect(Collectors.joining(", ")))));
    }
}
