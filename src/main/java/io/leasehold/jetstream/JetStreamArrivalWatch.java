package io.leasehold.jetstream;

import io.leasehold.spool.ArrivalWatch;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.KeyValueWatchOption;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.impl.NatsKeyValueWatchSubscription;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The doorbell of a JetStream spool: a watch of the ledger's updates, telling the drain of every entry
 * that became pending (an enqueue, a hand-back, a retry) as the server sends it. Only a hint: whoever
 * claims first wins by the ledger's compare-and-set, and the drain's poll finds whatever a watch missed
 * (a watch is not promised to resume after a server restart).
 */
final class JetStreamArrivalWatch implements ArrivalWatch {

    private static final Logger LOG = Logger.getLogger(JetStreamArrivalWatch.class);

    private final Ledger ledger;
    private volatile NatsKeyValueWatchSubscription subscription;

    JetStreamArrivalWatch(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public boolean start(Consumer<String> arrived, Runnable missed) {
        KeyValueWatcher watcher = new KeyValueWatcher() {
            @Override
            public void watch(KeyValueEntry entry) {
                if (entry.getOperation() != KeyValueOperation.PUT || entry.getValue() == null) {
                    return;
                }
                Optional<String> id = LedgerKeys.id(entry.getKey());
                try {
                    if (id.isPresent() && LedgerJson.decode(entry.getValue()).pending()) {
                        arrived.accept(id.get());
                    }
                } catch (IOException e) {
                    LOG.debugf("an entry of %s the watch could not read: %s", entry.getKey(), e.getMessage());
                }
            }

            @Override
            public void endOfData() {
            }
        };
        try {
            subscription = NatsCalls.guarded("watching " + ledger.bucket(),
                    () -> ledger.kv().watchAll(watcher, KeyValueWatchOption.UPDATES_ONLY));
            return true;
        } catch (Exception e) {
            LOG.warnf("no watch of %s (%s): arrivals are found at each poll", ledger.bucket(), e.getMessage());
            return false;
        }
    }

    @Override
    public void close() {
        NatsKeyValueWatchSubscription watching = subscription;
        if (watching != null) {
            try {
                watching.unsubscribe();
            } catch (RuntimeException e) {
                LOG.debugf("the watch of %s could not be ended cleanly: %s", ledger.bucket(), e.getMessage());
            }
        }
    }
}
