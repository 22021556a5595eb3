package io.leasehold.jetstream;

import io.leasehold.spool.ArrivalWatch;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The doorbell of a JetStream spool: the ledger's standing watch ({@link LedgerMirror}) tells the drain of
 * every entry that became pending (an enqueue, a hand-back, a retry) as the server sends it. Only a hint:
 * whoever claims first wins by the ledger's compare-and-set, and when the watch is made afresh (after a
 * reconnect, or a watch that stopped) the drain is told it may have missed some, and looks.
 */
final class JetStreamArrivalWatch implements ArrivalWatch {

    private static final Logger LOG = Logger.getLogger(JetStreamArrivalWatch.class);

    private final Ledger ledger;
    private volatile LedgerMirror mirror;
    private volatile Consumer<String> arrived;
    private volatile Runnable missed;

    JetStreamArrivalWatch(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public boolean start(Consumer<String> arrived, Runnable missed) {
        try {
            mirror = ledger.mirror();
        } catch (Exception e) {
            LOG.warnf("no watch of %s (%s): arrivals are found at each poll", ledger.bucket(), e.getMessage());
            return false;
        }
        this.arrived = arrived;
        this.missed = missed;
        mirror.onArrival(arrived);
        mirror.onRebuilt(missed);
        return true;
    }

    @Override
    public void close() {
        LedgerMirror watching = mirror;
        if (watching != null) {
            watching.offArrival(arrived);
            watching.offRebuilt(missed);
        }
    }
}
