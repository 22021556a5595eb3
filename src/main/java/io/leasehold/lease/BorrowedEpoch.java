package io.leasehold.lease;

import io.leasehold.core.DurationText;
import io.leasehold.core.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Another holder's epoch, as {@code lease exec} may act under it; the lease is read every
 * {@link #readEvery}. Every time here is this process's own monotonic reading, never the holder's.
 *
 * <p>The rule: a value seen at revision r' replaced r some time after the last read that still showed
 * r was <em>sent</em> — at p. Any candidate takes over only once it has seen the lease unchanged for a
 * full {@code duration} from a first sight of r' or later, so not before p + duration. CMD may act
 * under the epoch until p + renew-deadline (TERM) and is dead by p + {@link LeaseTiming#killAfter()}
 * (KILL), short of p + duration. Each change seen moves p on; a read that fails does not.
 *
 * <p>At first sight there is no p, so nothing may act yet: the epoch is offered only once a change is
 * seen. An empty key, a vacancy (released, or reset after a wipe) and this process's own value are
 * never offered — this process's own lease decides those, as it does a holder seen unrenewed for a
 * full duration. A clean release by the holder lets a candidate take at once; it is seen at the next
 * read, and CMD gets TERM then (see docs/lease.md).
 */
public final class BorrowedEpoch implements AutoCloseable {

    private static final Duration SHORTEST_READ_PERIOD = Duration.ofMillis(50);

    /**
     * What the watch tells. {@code borrowable} and {@code unreadable} are called with the watch's lock held
     * (return quickly); {@code stale} after it was let go, once: it may stop acts (no reader of the epoch
     * waits on it meanwhile).
     */
    public interface Listener {

        /** {@code held}'s epoch may be acted under from now on; answers whether CMD will (if not, the watch ends). */
        boolean borrowable(LeaseStore.Versioned held);

        /** Before anything was borrowed, no read answered for a full duration. */
        void unreadable(String why);

        /** The borrowed epoch is stale: CMD gets TERM now and must be dead by {@code killAtNanos}. */
        void stale(String why, long killAtNanos);

        /**
         * Reads began to fail (said once until one answers again); nothing changes by it: a borrowed epoch
         * simply lapses at its deadline. For the log of whoever has one.
         */
        default void readFailing(String why) {
        }
    }

    private final LeaseStore store;
    private final Clock clock;
    private final LeaseTiming timing;
    private final Holder me;
    private final Listener listener;
    private final Object reading = new Object();

    private boolean seenAny;
    /** What the latest answered read showed (null: the key was empty), and when the latest read showing it was sent. */
    private LeaseStore.Versioned shown;
    private long shownSentAt;
    private long answeredAt;
    private boolean failing;
    /** The epoch borrowed, 0 before; and p, the send time of the last read showing the value before the latest. */
    private long epoch;
    private long renewedAfter;
    private Clock.Timer deadline;
    private boolean over;

    public BorrowedEpoch(LeaseStore store, Clock clock, LeaseTiming timing, Holder me, Listener listener) {
        this.store = store;
        this.clock = clock;
        this.timing = timing;
        this.me = me;
        this.listener = listener;
        this.answeredAt = clock.monotonicNanos();
    }

    /**
     * How often to read: p lags a renewal by up to one period, and the next renewal is seen up to one
     * period late, so both must fit, with room for the holder's own jitter and the calls' latency, in
     * renew-deadline − renew-every (the slack a live holder leaves before the borrower's TERM).
     */
    public static Duration readEvery(LeaseTiming timing) {
        Duration every = timing.renewDeadline().minus(timing.renewEvery()).dividedBy(5);
        if (every.compareTo(timing.renewEvery()) > 0) {
            return timing.renewEvery();
        }
        return every.compareTo(SHORTEST_READ_PERIOD) < 0 ? SHORTEST_READ_PERIOD : every;
    }

    /**
     * The epoch that may be acted under now; 0 while none is borrowed, once the watch ended, and from
     * p + renew-deadline on even if the timer that says so has not run yet (a busy timer thread).
     */
    public synchronized long epoch() {
        if (over || epoch == 0 || clock.monotonicNanos() >= renewedAfter + timing.renewDeadline().toNanos()) {
            return 0;
        }
        return epoch;
    }

    /** One read of the lease: blocking (one store call, bounded by the bus's request timeout); reads never overlap. */
    public void look() {
        synchronized (reading) {
            if (ended()) {
                return;
            }
            long sentAt = clock.monotonicNanos();
            Optional<LeaseStore.Versioned> seen;
            try {
                seen = store.read();
            } catch (LeaseStoreException e) {
                failed(e);
                return;
            }
            tell(answered(sentAt, seen.orElse(null)));
        }
    }

    /** Runs what a decision made under the lock has to tell, with the lock let go. */
    private static void tell(Runnable told) {
        if (told != null) {
            told.run();
        }
    }

    /** Whether the watch ended: stale, closed, or refused by its listener; it tells nothing more. */
    public synchronized boolean ended() {
        return over;
    }

    private synchronized Runnable answered(long sentAt, LeaseStore.Versioned seen) {
        if (over) {
            return null;
        }
        answeredAt = clock.monotonicNanos();
        failing = false;
        if (seenAny && same(shown, seen)) {
            shownSentAt = sentAt;
            return null;
        }
        boolean first = !seenAny;
        long p = shownSentAt;
        seenAny = true;
        shown = seen;
        shownSentAt = sentAt;
        if (first) {
            return null;
        }
        if (epoch == 0) {
            offer(seen, p);
        } else if (holding(seen) && seen.epoch() == epoch) {
            renewedAfter(p);
        } else {
            return stale(why(seen), Math.min(renewedAfter + timing.killAfter().toNanos(),
                    clock.monotonicNanos() + timing.grace().toNanos()));
        }
        return null;
    }

    private void offer(LeaseStore.Versioned seen, long p) {
        if (!holding(seen)) {
            return;
        }
        if (clock.monotonicNanos() >= p + timing.renewDeadline().toNanos()) {
            return; // seen too late to act under (reads failed meanwhile): the next change says more
        }
        if (!listener.borrowable(seen)) {
            close();
            return;
        }
        epoch = seen.epoch();
        renewedAfter(p);
    }

    private void renewedAfter(long p) {
        renewedAfter = p;
        if (deadline != null) {
            deadline.close();
        }
        long in = p + timing.renewDeadline().toNanos() - clock.monotonicNanos();
        deadline = clock.timer("leasehold-borrowed-deadline", Duration.ofNanos(Math.max(0, in)), () -> tell(expired(p)));
    }

    private synchronized Runnable expired(long p) {
        if (over || renewedAfter != p) {
            return null; // renewed since: a newer timer counts
        }
        return stale("no renewal of epoch " + epoch + " was seen within leasehold.lease.renew-deadline ("
                + DurationText.of(timing.renewDeadline()) + "): what acts under it stops before a new holder could take over", p
                + timing.killAfter().toNanos());
    }

    private synchronized void failed(LeaseStoreException e) {
        if (over) {
            return;
        }
        if (epoch == 0 && clock.monotonicNanos() - answeredAt >= timing.duration().toNanos()) {
            close();
            listener.unreadable("the lease could not be read for a full leasehold.lease.duration ("
                    + timing.duration() + "): " + e.getMessage());
            return;
        }
        if (!failing) {
            listener.readFailing("the lease could not be read (tried again every " + readEvery(timing) + "): "
                    + e.getMessage());
        }
        failing = true; // a failed read moves nothing: the deadline counts from the last change seen
    }

    /** Ends the watch under the lock; answers the telling, for the caller to run once the lock is let go. */
    private Runnable stale(String why, long killAtNanos) {
        close();
        return () -> listener.stale(why, killAtNanos);
    }

    /**
     * Ends the watch now: an epoch still borrowed is told stale at once (KILL due now), whatever its
     * deadline; otherwise the watch just closes. Told once, whichever of this and the timer comes first.
     */
    public void endNow(String why) {
        Runnable told;
        synchronized (this) {
            if (!over && epoch != 0) {
                told = stale(why, clock.monotonicNanos());
            } else {
                close();
                told = null;
            }
        }
        tell(told);
    }

    /** Stops watching: nothing is told any more. */
    @Override
    public synchronized void close() {
        over = true;
        if (deadline != null) {
            deadline.close();
        }
    }

    /** A live holder's value, not this process's own. */
    private boolean holding(LeaseStore.Versioned seen) {
        return seen != null && !seen.record().vacant() && !seen.record().heldBy(me);
    }

    private static boolean same(LeaseStore.Versioned a, LeaseStore.Versioned b) {
        return a == null ? b == null : b != null && a.revision() == b.revision() && a.record().equals(b.record());
    }

    private String why(LeaseStore.Versioned seen) {
        if (seen == null) {
            return "the lease of epoch " + epoch + " was deleted";
        }
        if (seen.record().vacancy() == LeaseRecord.Vacancy.RELEASED) {
            return "the holder of epoch " + epoch + " gave the lease back: another may take it at once";
        }
        if (seen.record().vacancy() == LeaseRecord.Vacancy.RESET) {
            return "the lease store was reset: epoch " + epoch + " is stale";
        }
        return "the lease now names epoch " + seen.epoch() + " (" + seen.record().holder().instance() + "): epoch "
                + epoch + " is stale";
    }
}
