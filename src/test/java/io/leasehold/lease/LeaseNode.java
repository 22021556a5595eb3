package io.leasehold.lease;

import io.leasehold.clock.TickingClock;
import io.leasehold.testing.DrivenClock;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * One process of the state-machine tests: its own driven clock, events and lease, ticking every
 * renew-every, on a store and floor the test shares between processes. Steps run where {@code steps}
 * runs them (the caller's thread, for a test that drives everything by hand). As a service in
 * {@code claims} mode, it borrows the holder's epoch while waiting, reading every
 * {@link BorrowedEpoch#readEvery} (the tick "borrow"); the lapses it is told are in {@link #lapses}.
 */
class LeaseNode {

    final DrivenClock clock;
    final RecordingLeaseEvents events = new RecordingLeaseEvents();
    final ControllerLease lease;
    final TickingClock.Ticks ticks;
    final EpochFloor ownFloor;
    final Borrowing borrowing;
    final List<Borrowing.Lapse> lapses = new CopyOnWriteArrayList<>();
    /** When each lapse was told, on this process's monotonic clock. */
    final List<Long> lapsedAt = new CopyOnWriteArrayList<>();

    LeaseNode(LeaseStore store, EpochFloor floor, Executor calls, LeaseTiming timing, String name, Executor steps,
            DrivenClock clock) {
        this(store, floor, null, calls, timing, name, steps, clock);
    }

    /** {@code wall}: as on an instance whose floor does not outlive the bus's data; null for a lasting floor. */
    LeaseNode(LeaseStore store, EpochFloor floor, WallClockFloor wall, Executor calls, LeaseTiming timing, String name,
            Executor steps, DrivenClock clock) {
        this.clock = clock;
        this.ownFloor = floor;
        lease = new ControllerLease(store, floor, wall, clock, timing, new Holder(name, "host", "test"), steps, calls,
                events);
        Holder me = new Holder(name, "host", "test");
        borrowing = new Borrowing(store, clock, timing, me, lapse -> {
            lapsedAt.add(clock.monotonicNanos());
            lapses.add(lapse);
        });
        lease.lendWhileWaiting(borrowing);
        ticks = clock.every("lease", timing.renewEvery(), () -> Uni.createFrom().completionStage(lease::tick));
        clock.every("borrow", BorrowedEpoch.readEvery(timing), () -> {
            if (lease.waiting()) {
                borrowing.look();
            }
            return Uni.createFrom().voidItem();
        });
    }

    /** One read of the borrowing now, as its tick makes. */
    void look() {
        clock.tick("borrow");
    }

    /** The tick, to its end (on the steps' executor). */
    void step() {
        clock.tick("lease");
    }

    /** A tick whose step may block on a held store call: the test awaits it later. */
    CompletableFuture<Void> stepAsync() {
        return lease.tick();
    }

    String mode() {
        return lease.standing().mode();
    }
}
