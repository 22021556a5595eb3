package io.leasehold.spool;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * What the spool keeps per recurring schedule, for the whole fleet: its mark (the fire time through which
 * everything is decided, and the last item it fired) and whether it was paused or resumed by hand. Kept with
 * the items because it must outlive every instance and a wipe of the lease's bucket. Blocking.
 */
public interface ScheduleBook {

    /** The mark of {@code name}, the latest any instance wrote; empty when none was ever written. */
    Optional<Mark> mark(String name) throws IOException;

    /**
     * Moves the mark of {@code name} to {@code mark}, never back: where the spool holds a later one already
     * (another instance moved it meanwhile), that one stays. Durable when this returns.
     */
    void advance(String name, Mark mark) throws IOException;

    /** The last pause or resume of {@code name} by hand; empty when there was none (the configuration decides). */
    Optional<Pause> pause(String name) throws IOException;

    /** Records a pause or resume of {@code name} for the whole fleet, replacing the one before. Durable when this returns. */
    void setPause(String name, Pause pause) throws IOException;

    /**
     * @param through every fire time at or before this is decided (fired, or passed over by the misfire policy)
     * @param lastFired the last item this schedule fired, if any
     */
    record Mark(Instant through, Fired lastFired) {
        public Mark {
            java.util.Objects.requireNonNull(through, "through");
        }
    }

    /**
     * One fire time fired: its item, and the epoch and instance it was fired under.
     *
     * @param at when it was fired, on the firing instance's clock
     */
    record Fired(Instant fireTime, String id, long epoch, String by, Instant at) {
    }
}
