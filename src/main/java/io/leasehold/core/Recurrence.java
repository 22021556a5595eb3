package io.leasehold.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The fire times of a recurring schedule: whole seconds, the same on every instance that computes them
 * (they depend on nothing but the schedule). An {@code every} schedule's are computed here ({@link Every});
 * a cron schedule's by the cron library, outside the core.
 */
public interface Recurrence {

    /** The first fire time strictly after {@code t}, if there is one. */
    Optional<Instant> after(Instant t);

    /** The last fire time strictly before {@code t}, if there is one. */
    Optional<Instant> before(Instant t);

    /** The last fire time at or before {@code t}: fire times are whole seconds, so one before t's next second. */
    default Optional<Instant> atOrBefore(Instant t) {
        return before(t.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1));
    }
}
