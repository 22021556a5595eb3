package io.leasehold.lease;

import io.leasehold.clock.TickingClock;
import io.leasehold.testing.DrivenClock;
import io.smallrye.mutiny.Uni;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One process of the state-machine tests: its own driven clock, events and lease, ticking every
 * renew-every, on a store and floor the test shares between processes. Steps run where {@code steps}
 * runs them (the caller's thread, for a test that drives everything by hand).
 */
class LeaseNode {

    final DrivenClock clock;
    final RecordingLeaseEvents events = new RecordingLeaseEvents();
    final ControllerLease lease;
    final TickingClock.Ticks ticks;
    final EpochFloor ownFloor;

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
        ticks = clock.every("lease", timing.renewEvery(), () -> Uni.createFrom().completionStage(lease::tick));
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
