package io.leasehold.lease;

import io.leasehold.core.Clock;
import java.io.IOException;
import java.time.Duration;

/**
 * Keeps epochs from going backwards when the store loses its data: the highest revision a holder
 * ever wrote — its epoch, and each renewal — is kept apart (the {@link EpochFloor}, in the spool), a store found behind it has its revisions moved
 * past it, and an empty key while epochs were issued is marked reset in the store itself. The mark is
 * what every candidate — any process, any lease object — sees, so each waits a full duration after
 * a reset, however many candidates there are and whichever of them moved the revisions.
 */
final class StoreResets {

    /**
     * How far past the floor a store found behind it is moved. A holder records its renewals in the floor
     * off its renewal's thread, so the floor may lag its last few revisions (many, behind a stuck disk);
     * were the reset mark to land at the very revision the holder's next renewal expects, that renewal would
     * overwrite the mark and the holding would outlive the reset unseen. Ten thousand renewals is hours of
     * lag at the shortest renew-every (1s); revisions are 64-bit, so the jump costs nothing.
     */
    static final long UNRECORDED_MARGIN = 10_000;

    private final LeaseStore store;
    private final EpochFloor floor;
    private final BoundedCalls calls;
    private final Clock clock;
    private final Holder me;
    /** Null when the recorded floor outlives the bus's data (a shared spool); else what a new store is moved past. */
    private final WallClockFloor wall;
    /** Step thread only: when the store was first seen new since it last was not (NEVER: not seen new). */
    private long newSeenAtNanos = NEVER;
    private static final long NEVER = Long.MIN_VALUE;

    StoreResets(LeaseStore store, EpochFloor floor, BoundedCalls calls, Clock clock, Holder me, WallClockFloor wall) {
        this.store = store;
        this.floor = floor;
        this.calls = calls;
        this.clock = clock;
        this.me = me;
        this.wall = wall;
    }

    /**
     * Moves the store's revisions past the floor when it is behind it (its data was wiped or replaced),
     * or, without a floor that outlives the bus's data, past the wall clock when the store is new. The
     * move purges the key too.
     */
    Moved moveIfBehind(Duration bound) throws LeaseStoreException, IOException {
        long highest = floor.highest();
        long storeAt = calls.call(store::lastRevision, bound);
        if (storeAt == 0 && wall != null) {
            return moveNew(highest, bound);
        }
        newSeenAtNanos = NEVER;
        if (storeAt >= highest) {
            return Moved.NOTHING;
        }
        long past = past(highest);
        calls.call(() -> store.moveRevisionsPast(past), bound);
        return new Moved(new Standing.Reset(clock.now(), storeAt, highest, "the lease store was at revision " + storeAt
                + " while a holder had already written revision " + highest + " (its data was wiped or replaced); its revisions"
                + " were moved past " + past + " so epochs never go backwards and no unrecorded renewal meets the reset mark"),
                null);
    }

    /**
     * A new store may be one whose data was all wiped while a clock up to max-skew ahead of this one made
     * its revisions: this clock is read only once it has passed that one's reading at the wipe.
     */
    private Moved moveNew(long highest, Duration bound) throws LeaseStoreException, IOException {
        long now = clock.monotonicNanos();
        if (newSeenAtNanos == NEVER) {
            newSeenAtNanos = now;
        }
        if (now - newSeenAtNanos < wall.maxSkew().toNanos()) {
            return new Moved(null, "the lease store is new (made just now, or all its data was wiped): waiting "
                    + wall.maxSkew() + " (leasehold.claim.max-skew) before moving its revisions past this instance's"
                    + " clock, so that epochs never go backwards; then it is marked reset and taken after a full"
                    + " leasehold.lease.duration");
        }
        long clockFloor = wall.at(clock.now());
        long past = Math.max(clockFloor, highest == 0 ? 0 : past(highest));
        calls.call(() -> store.moveRevisionsPast(past), bound);
        newSeenAtNanos = NEVER;
        return new Moved(new Standing.Reset(clock.now(), 0, Math.max(highest, clockFloor), "the lease store was new (made"
                + " just now, or all its data was wiped) and no epoch floor outlives the bus's data here: its revisions"
                + " were moved past " + past + ", this instance's clock in microseconds since 1970, so epochs never go"
                + " backwards while the instances' clocks agree within leasehold.claim.max-skew"), null);
    }

    private static long past(long highest) throws IOException {
        if (highest > Long.MAX_VALUE - UNRECORDED_MARGIN - 1) {
            // No revision lies far enough past it (a floor file edited by hand, say): moving would wrap
            // around and let epochs go backwards, so nothing is taken until the floor is sane.
            throw new IOException("the epoch floor holds " + highest + ", too near the largest revision to move past");
        }
        return highest + UNRECORDED_MARGIN;
    }

    /**
     * What {@link #moveIfBehind} did: {@code reset} when it moved the revisions, {@code waiting} (why) when
     * the store is new and nothing may be taken yet; both null when nothing was to be done.
     */
    record Moved(Standing.Reset reset, String waiting) {
        static final Moved NOTHING = new Moved(null, null);
    }

    /**
     * For a key with no value at all: when epochs were (or, without a lasting floor, may have been) issued before, whoever held the lease may still
     * act, so the key is marked reset — by this process, or another that came first. Answers null for
     * a store that never issued an epoch (it may be taken at once), else the mark (its {@code mine}
     * null when another candidate wrote first).
     */
    Marked markIfReset(Duration bound) throws LeaseStoreException, IOException {
        // Without a floor that outlives the bus's data, an empty key may always follow a wipe.
        if (wall == null && floor.highest() == 0) {
            return null;
        }
        LeaseRecord mark = LeaseRecord.reset(me, clock.now());
        try {
            long revision = calls.call(() -> store.create(mark), bound);
            floor.raise(revision);
            return new Marked(new LeaseStore.Versioned(revision, mark));
        } catch (LeaseStoreException e) {
            if (e.kind() != LeaseStoreException.Kind.CONFLICT) {
                throw e;
            }
            return new Marked(null); // another candidate wrote first (its mark, or a take): the next read shows which
        }
    }

    /** The key is marked reset; {@code mine} is the mark when this process wrote it. */
    record Marked(LeaseStore.Versioned mine) {
    }

    /** A read showed a value: the store is not new, and a later wipe starts the max-skew wait afresh. */
    void storeInUse() {
        newSeenAtNanos = NEVER;
    }

    /** Whether new stores are moved past the wall clock: no floor here outlives the bus's data. */
    boolean fromClock() {
        return wall != null;
    }

    /** Records an epoch just issued before anything acts under it. */
    void issued(long epoch) throws IOException {
        floor.raise(epoch);
    }
}
