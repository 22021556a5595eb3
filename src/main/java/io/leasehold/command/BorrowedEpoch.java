package io.leasehold.command;

import io.leasehold.core.Clock;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseTiming;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The epoch of another holder, under which CMD acts, re-read every {@code renew-every}. It is stale —
 * and {@code onStale} is told why, once — when the lease is gone or names another epoch, when its value
 * was not renewed for a full {@code duration} (anyone may take it over now), or when no read confirmed
 * it for {@code renew-deadline} (the same limit the holder itself keeps). Times are this process's own
 * monotonic readings, never the holder's timestamps.
 */
final class BorrowedEpoch {

    private static final Logger LOG = Logger.getLogger(BorrowedEpoch.class);

    private final LeaseStore store;
    private final long epoch;
    private final LeaseTiming timing;
    private final Clock clock;
    private final Consumer<String> onStale;
    private boolean stale;
    private long confirmedAt;
    private long seenRevision;
    private long seenSince;

    /** {@code seen}: the lease as read when CMD was about to start; {@code readAt}: when that read was sent. */
    BorrowedEpoch(LeaseStore store, LeaseStore.Versioned seen, long readAt, LeaseTiming timing, Clock clock,
            Consumer<String> onStale) {
        this.store = store;
        this.epoch = seen.epoch();
        this.timing = timing;
        this.clock = clock;
        this.onStale = onStale;
        this.confirmedAt = readAt;
        this.seenRevision = seen.revision();
        this.seenSince = readAt;
    }

    long epoch() {
        return epoch;
    }

    /** One look at the lease; blocking (one bounded store call). Never run twice at once. */
    synchronized void check() {
        if (stale) {
            return;
        }
        long sentAt = clock.monotonicNanos();
        Optional<LeaseStore.Versioned> seen;
        try {
            seen = store.read();
        } catch (LeaseStoreException e) {
            if (clock.monotonicNanos() - confirmedAt >= timing.renewDeadline().toNanos()) {
                stale("the lease could not be read for leasehold.lease.renew-deadline (" + timing.renewDeadline()
                        + "): " + e.getMessage());
            } else {
                LOG.warnf("the lease could not be read: %s", e.getMessage());
            }
            return;
        }
        if (seen.isEmpty()) {
            stale("the lease of epoch " + epoch + " was given back or deleted");
            return;
        }
        LeaseStore.Versioned current = seen.get();
        if (current.epoch() != epoch) {
            stale("the lease now names epoch " + current.epoch() + " (" + current.record().holder().instance()
                    + "): epoch " + epoch + " is stale");
            return;
        }
        confirmedAt = sentAt;
        if (current.revision() != seenRevision) {
            seenRevision = current.revision();
            seenSince = sentAt;
        } else if (sentAt - seenSince >= timing.duration().toNanos()) {
            stale("the lease of epoch " + epoch + " was not renewed for a full leasehold.lease.duration ("
                    + timing.duration() + "): its holder is gone and anyone may take it over");
        }
    }

    private void stale(String why) {
        stale = true;
        onStale.accept(why);
    }
}
