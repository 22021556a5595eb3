package io.leasehold.logs;

import io.leasehold.core.DurationText;
import io.leasehold.drain.ItemLogContext;
import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseEvents;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.Standing;
import java.time.Duration;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The lease's events as log lines, and a loss handed on to whoever must stop acting. Open for
 * {@code lease exec}, which also decides its run on some of them.
 */
public class LoggedLeaseEvents implements LeaseEvents {

    private static final Logger LOG = Logger.getLogger("io.leasehold.lease");

    private final Duration renewEvery;
    private final Consumer<Loss> onLost;

    public LoggedLeaseEvents(Duration renewEvery, Consumer<Loss> onLost) {
        this.renewEvery = renewEvery;
        this.onLost = onLost;
    }

    @Override
    public void took(long epoch, LeaseStore.Versioned from) {
        if (from == null) {
            logged(epoch, () -> LOG.infof("took the controller lease: epoch %d", epoch));
            return;
        }
        Holder h = from.record().holder();
        logged(epoch, () -> LOG.warnf("took the controller lease over from %s on %s at epoch %d, which stopped"
                + " renewing it without giving it back; now epoch %d", h.instance(), h.host(), from.epoch(), epoch));
    }

    @Override
    public void adopted(long epoch) {
        logged(epoch, () -> LOG.infof("an earlier take of this instance had landed: holding the controller lease at"
                + " epoch %d", epoch));
    }

    @Override
    public void storeReset(Standing.Reset reset) {
        LOG.warn(reset.said());
    }

    @Override
    public void unleased(String why) {
        LOG.warnf("serving WITHOUT the controller lease (epoch 0): %s; trying again every %s", why,
                DurationText.of(renewEvery));
    }

    @Override
    public void renewalUnanswered(long epoch, String why) {
        logged(epoch, () -> LOG.warnf("renewal of epoch %d did not answer: %s", epoch, why));
    }

    @Override
    public void floorUnusable(String why) {
        LOG.error(why);
    }

    @Override
    public void lost(Loss loss) {
        long epoch = loss.standing().epoch();
        logged(epoch, () -> LOG.errorf("the controller lease was lost (epoch %d): %s", epoch, loss.standing().reason()));
        onLost.accept(loss);
    }

    @Override
    public void released(long epoch) {
        logged(epoch, () -> LOG.infof("released the controller lease (epoch %d)", epoch));
    }

    @Override
    public void releaseFailed(long epoch, String why) {
        logged(epoch, () -> LOG.warnf("could not release the controller lease (epoch %d): %s", epoch, why));
    }

    /** The line with the event's epoch in the log context, as an item's lines carry theirs; cleared after. */
    private static void logged(long epoch, Runnable line) {
        try (ItemLogContext context = ItemLogContext.ofEpoch(epoch)) {
            line.run();
        }
    }
}
