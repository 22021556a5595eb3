package io.leasehold.handler;

import io.leasehold.core.HandlerOutput;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * What one attempt is given.
 *
 * @param epoch the fencing token of the controller lease the attempt acts under; 0 without a lease
 * @param startedAt when this attempt began, on this instance's clock
 * @param reports where the attempt's output goes ({@link #report}); the drain keeps the last one reported
 */
public record WorkItem(String id, int attempt, byte[] payload, long epoch, Instant startedAt,
        Consumer<HandlerOutput> reports) {

    public WorkItem {
        reports = reports == null ? output -> { } : reports;
    }

    /** An attempt whose output goes nowhere. */
    public WorkItem(String id, int attempt, byte[] payload, long epoch, Instant startedAt) {
        this(id, attempt, payload, epoch, startedAt, null);
    }

    /**
     * Tells what the attempt showed (a child's output, an answer's body), for the operator to read at
     * {@code GET /items/{id}/attempts/{n}/output}. Call it before the outcome is answered, or from a
     * cancellation; the last call wins. A handler that never calls it keeps no output.
     */
    public void report(HandlerOutput output) {
        if (output != null) {
            reports.accept(output);
        }
    }

    /**
     * The fire time of a recurring schedule's item, read from its id ({@code nightly.20261205T020000Z}; a trigger
     * by hand, {@code nightly.manual-20261205T020000.123Z}, gives its instant); empty for any other item.
     */
    public java.util.Optional<Instant> fireTime() {
        return io.leasehold.core.FireTimeIds.fireTimeOf(id);
    }
}
