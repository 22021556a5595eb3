package io.leasehold.drain;

import io.leasehold.core.HandlerOutput;
import io.leasehold.core.HeldClaim;
import io.leasehold.spool.AttemptOutput;
import io.leasehold.spool.AttemptOutputs;
import java.io.IOException;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Keeps what an attempt's handler reported (its output) for the operator. Never the item's business: an
 * output that cannot be kept (a full disk, NATS away) is logged and the item settles as it would have.
 */
public final class OutputKeeping {

    private static final Logger LOG = Logger.getLogger(OutputKeeping.class);

    /** Keeps nothing. */
    public static final OutputKeeping NONE = new OutputKeeping(AttemptOutputs.NONE, "");

    private final AttemptOutputs outputs;
    private final String handler;

    /** @param handler the name the outputs give the handler ({@code exec}, {@code http}, a bean's) */
    public OutputKeeping(AttemptOutputs outputs, String handler) {
        this.outputs = outputs;
        this.handler = handler;
    }

    /** Keeps the output, if any; an output that could not be kept is logged and told to {@code events}. */
    void keep(HeldClaim claim, HandlerOutput output, Instant endedAt, DrainEvents events) {
        if (output == null || this == NONE) {
            return;
        }
        try {
            outputs.keep(claim.id(), AttemptOutput.of(claim.attempt(), handler, claim.startedAt(), endedAt, output));
        } catch (IOException | RuntimeException e) {
            LOG.warnf("the output of %s attempt %d was not kept (the item settles all the same): %s", claim.id(),
                    claim.attempt(), e.getMessage());
            events.outputNotKept(claim.id(), claim.attempt(), String.valueOf(e.getMessage()));
        }
    }
}
