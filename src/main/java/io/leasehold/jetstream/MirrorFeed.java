package io.leasehold.jetstream;

import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.impl.NatsKeyValueWatchSubscription;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/** One watch of the ledger and the picture it fills; it tells its mirror when the picture is whole. */
final class MirrorFeed implements KeyValueWatcher {

    /** The mirror's lines keep its category. */
    private static final Logger LOG = Logger.getLogger(LedgerMirror.class);
    final MirrorCopy copy;
    /** The stream's last sequence before the watch began: its initial values cover at least that. */
    private final long lastBefore;
    private NatsKeyValueWatchSubscription subscription;
    private boolean ended;

    private final String bucket;
    /** Told of an item that became pending once the picture is whole. */
    private final Consumer<String> pendingArrived;
    /** Told once the watch's initial values are all in. */
    private final Consumer<MirrorFeed> whole;

    MirrorFeed(MirrorCopy copy, long lastBefore, String bucket, Consumer<String> pendingArrived,
            Consumer<MirrorFeed> whole) {
        this.copy = copy;
        this.lastBefore = lastBefore;
        this.bucket = bucket;
        this.pendingArrived = pendingArrived;
        this.whole = whole;
    }

    @Override
    public void watch(KeyValueEntry e) {
        Optional<String> id = LedgerKeys.id(e.getKey());
        if (id.isEmpty()) {
            // The ledger's own bookkeeping (batch markers): no item, but delivered all the same, so that
            // check() does not find the watch behind a batch whose last write was its marker's removal.
            copy.passed(e.getRevision());
            return;
        }
        if (e.getOperation() != KeyValueOperation.PUT || e.getValue() == null) {
            copy.deliveredRemoval(id.get(), e.getRevision());
            return;
        }
        if (copy.passedIfKnown(id.get(), e.getRevision())) {
            return; // this instance's own write, shown already: not decoded twice
        }
        LedgerEntry entry;
        try {
            entry = LedgerJson.decode(e.getValue());
        } catch (IOException unreadable) {
            copy.deliveredRemoval(id.get(), e.getRevision()); // written by someone else: not an item of ours
            return;
        }
        copy.delivered(id.get(), e.getRevision(), entry);
        if (entry.pending() && copy.complete()) {
            pendingArrived.accept(id.get());
        }
    }

    @Override
    public void endOfData() {
        copy.markComplete(lastBefore);
        whole.accept(this);
    }

    /** The watch, once subscribed; ended at once when the feed was closed before it was. */
    synchronized void subscribed(NatsKeyValueWatchSubscription s) {
        subscription = s;
        if (ended) {
            end(s);
        }
    }

    synchronized void close() {
        ended = true;
        if (subscription != null) {
            end(subscription);
        }
    }

    private void end(NatsKeyValueWatchSubscription s) {
        try {
            s.unsubscribe();
        } catch (RuntimeException e) {
            LOG.debugf("the watch of %s could not be ended cleanly: %s", bucket, e.getMessage());
        }
    }
}
