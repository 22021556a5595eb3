package io.leasehold.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.leasehold.spool.Pause;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code GET /drain}, and the answer to a pause or resume: whether the fleet's drain is paused, since when
 * and by whom; {@code since} and {@code by} are left out for a drain that was never paused.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DrainState(boolean paused, Instant since, String by) {

    public static DrainState of(Optional<Pause> pause) {
        return pause.map(p -> new DrainState(p.paused(), p.since(), p.by())).orElse(new DrainState(false, null, null));
    }
}
