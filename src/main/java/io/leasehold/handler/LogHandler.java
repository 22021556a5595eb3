package io.leasehold.handler;

import io.leasehold.core.Outcome;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

/** Logs each item and succeeds: the embedded default, for trying the service out. */
public final class LogHandler implements Handler {

    private static final Logger LOG = Logger.getLogger(LogHandler.class);

    @Override
    public Uni<Outcome> handle(WorkItem item) {
        LOG.infof("item %s attempt %d epoch %d: %d bytes", item.id(), item.attempt(), item.epoch(),
                item.payload().length);
        return Uni.createFrom().item(Outcome.done());
    }
}
