package io.leasehold.handler;

import io.leasehold.core.Outcome;
import io.smallrye.mutiny.Uni;

/**
 * The work done on one item. Implement it as a CDI bean annotated {@code @Named("my-handler")} and set
 * {@code leasehold.handler=my-handler} to use your own.
 *
 * <p>Contract: the returned {@link Uni} yields how the attempt went. When the claim is lost (another
 * instance took the item over), on timeout and on shutdown the Uni is <em>cancelled</em>: stop the
 * work then. Never block the calling thread; run blocking work on a worker pool. An exception or a
 * failed Uni counts as a retryable failure.
 */
public interface Handler {

    Uni<Outcome> handle(WorkItem item);
}
