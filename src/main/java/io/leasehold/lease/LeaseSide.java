package io.leasehold.lease;

import io.leasehold.core.Clock;
import java.util.concurrent.Executor;

/**
 * What both sides of one controller lease, {@link Candidate} and {@link Holding}, work with: the driver
 * whose state they move by compare-and-set, and the parts it hands each of them once.
 */
abstract class LeaseSide {

    /** The parts a {@link ControllerLease} shares with its two sides. */
    record Parts(LeaseStore store, StoreResets resets, Clock clock, LeaseTiming timing, Holder me,
            BoundedCalls calls, Executor callThreads, LeaseEvents events) {
    }

    final ControllerLease lease;
    final LeaseStore store;
    final StoreResets resets;
    final Clock clock;
    final LeaseTiming timing;
    final Holder me;
    final BoundedCalls calls;
    final Executor callThreads;
    final LeaseEvents events;

    LeaseSide(ControllerLease lease, Parts parts) {
        this.lease = lease;
        this.store = parts.store();
        this.resets = parts.resets();
        this.clock = parts.clock();
        this.timing = parts.timing();
        this.me = parts.me();
        this.calls = parts.calls();
        this.callThreads = parts.callThreads();
        this.events = parts.events();
    }
}
