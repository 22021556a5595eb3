package io.leasehold.handler;

import java.time.Instant;

/**
 * What one attempt is given.
 *
 * @param epoch the fencing token of the controller lease the attempt acts under; 0 without a lease
 * @param startedAt when this attempt began, on this instance's clock
 */
public record WorkItem(String id, int attempt, byte[] payload, long epoch, Instant startedAt) {

    /**
     * The fire time of a recurring schedule's item, read from its id ({@code nightly.20261205T020000Z}; a trigger
     * by hand, {@code nightly.manual-20261205T020000.123Z}, gives its instant); empty for any other item.
     */
    public java.util.Optional<Instant> fireTime() {
        return io.leasehold.core.FireTimeIds.fireTimeOf(id);
    }
}
