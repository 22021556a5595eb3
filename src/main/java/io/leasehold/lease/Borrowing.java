package io.leasehold.lease;

import io.leasehold.core.Clock;
import java.util.function.Consumer;

/**
 * A waiting service instance's borrowing of the holder's epoch ({@code claims} mode), for as long as it
 * runs: one {@link BorrowedEpoch} watch after another. A watch ends when its epoch goes stale; the next
 * one borrows again only once it has seen a renewal, never at first sight. What acted under the stale
 * epoch is told to stop ({@link Lapse}) from the watch's own timer or read, never from a thread that
 * could wait on the drain or on the bus. See docs/lease.md, "Borrowed epochs".
 */
public final class Borrowing {

    /**
     * Nothing may act under {@code epoch} any more: what runs under it stops now and is dead by
     * {@code killAtNanos} on the monotonic clock. {@code byTake}: ended because this instance takes the
     * lease (expected), not because the holder was not seen renewing.
     */
    public record Lapse(long epoch, String why, long killAtNanos, boolean byTake) {
    }

    private final LeaseStore store;
    private final Clock clock;
    private final LeaseTiming timing;
    private final Holder me;
    private final Consumer<Lapse> onLapse;
    private volatile BorrowedEpoch watch;
    private boolean ended;
    /** The reason {@link #endNow} was given: a lapse told with this very string is this instance's own take's. */
    private volatile String takeWhy;

    /** {@code onLapse}: called on the watch's timer or reading thread, once per epoch borrowed; returns quickly. */
    public Borrowing(LeaseStore store, Clock clock, LeaseTiming timing, Holder me, Consumer<Lapse> onLapse) {
        this.store = store;
        this.clock = clock;
        this.timing = timing;
        this.me = me;
        this.onLapse = onLapse;
    }

    /** The holder's epoch this instance may act under now; 0 for none. */
    public long epoch() {
        BorrowedEpoch current = watch;
        return current == null ? 0 : current.epoch();
    }

    /**
     * One read of the lease, every {@link BorrowedEpoch#readEvery} while this instance waits: blocking,
     * bounded by the bus's request timeout. A watch that ended is replaced first.
     */
    public void look() {
        BorrowedEpoch current = current();
        if (current != null) {
            current.look();
        }
    }

    private synchronized BorrowedEpoch current() {
        if (ended) {
            return null;
        }
        BorrowedEpoch current = watch;
        if (current == null || current.ended()) {
            current = new BorrowedEpoch(store, clock, timing, me, new Told());
            watch = current;
        }
        return current;
    }

    /**
     * This instance takes the lease: what runs under a borrowed epoch is told to stop now,
     * before the call returns, so none of it runs on past this instance's first act under its own epoch.
     * The next {@link #look} starts watching afresh (a take that fails waits like any candidate).
     */
    public void endNow(String why) {
        BorrowedEpoch current;
        synchronized (this) {
            current = watch;
            watch = null;
        }
        if (current != null) {
            takeWhy = why;
            current.endNow(why);
        }
    }

    /**
     * For good, telling nothing: at shutdown (the drain has stopped already) and at a loss (the process
     * exits, and stops every act first).
     */
    public void close() {
        BorrowedEpoch current;
        synchronized (this) {
            ended = true;
            current = watch;
            watch = null;
        }
        if (current != null) {
            current.close();
        }
    }

    /** What one watch tells: the epoch it lent, once, and its end. */
    private final class Told implements BorrowedEpoch.Listener {
        private volatile long lent;

        @Override
        public boolean borrowable(LeaseStore.Versioned held) {
            lent = held.epoch();
            return true;
        }

        @Override
        public void unreadable(String why) {
            // Nothing was lent; the next look starts a new watch, which borrows once it sees a renewal.
        }

        @Override
        public void stale(String why, long killAtNanos) {
            if (lent != 0) {
                onLapse.accept(new Lapse(lent, why, killAtNanos, why == takeWhy)); // the same string, not an equal one
            }
        }
    }
}
