package io.leasehold.api;

import jakarta.annotation.security.RolesAllowed;
import io.leasehold.stats.ActivitySeries;
import io.leasehold.stats.ActivityStats;
import io.quarkus.runtime.configuration.DurationConverter;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponses;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** This instance's activity per minute, from memory: what the status page's charts draw. */
@Path("/stats")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "spool")
@RolesAllowed({ApiTokens.VIEWER, ApiTokens.OPERATOR}) // reads: either token; changes: the operator's (below)
public class StatsResource {

    static final Duration DEFAULT_WINDOW = Duration.ofHours(1);
    static final Duration MAX_WINDOW = Duration.ofMinutes(ActivitySeries.MINUTES);

    private final ActivityStats stats;

    public StatsResource(ActivityStats stats) {
        this.stats = stats;
    }

    @Operation(operationId = "getStats", summary = "This instance's items done, failed, retried and enqueued per minute, with the pending count and oldest pending age")
    @APIResponses({
        @APIResponse(responseCode = "200", description = "one entry per minute of the window since this instance started, oldest first"),
        @APIResponse(responseCode = "400", description = "window is not a duration of 1m to 24h")
    })
    @GET
    public StatsView get(@Parameter(description = "how far back, 1m to 24h (1h, 90m, PT6H)", schema = @Schema(
            type = SchemaType.STRING, format = "duration", defaultValue = "1h", example = "6h")) @QueryParam("window") String window) {
        Duration asked = parse(window);
        return new StatsView(asked.toMinutes(), stats.window(asked));
    }

    static Duration parse(String window) {
        if (window == null || window.isBlank()) {
            return DEFAULT_WINDOW;
        }
        Duration parsed;
        try {
            parsed = DurationConverter.parseDuration(window.trim());
        } catch (RuntimeException e) {
            parsed = null;
        }
        if (parsed == null || parsed.compareTo(Duration.ofMinutes(1)) < 0 || parsed.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("window must be a duration from 1m to 24h, such as 1h or 90m, got '"
                    + io.leasehold.core.ItemId.printable(window) + "'");
        }
        return parsed;
    }
}
