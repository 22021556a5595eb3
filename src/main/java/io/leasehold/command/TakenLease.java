package io.leasehold.command;

import io.leasehold.logs.LoggedLeaseEvents;
import io.leasehold.clock.TickingClock;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.ControllerLease;
import io.leasehold.lease.EpochFloor;
import io.leasehold.lease.WallClockFloor;
import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseEvents;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.lease.Standing;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The controller lease as {@code lease exec} may take it: the service's own {@link ControllerLease},
 * stepped every renew-every — as a candidate, which takes when nobody holds the lease or after it has
 * seen it unrenewed for a full duration, then as the holder — and given back after CMD. A loss stops
 * CMD: TERM at once, KILL by the lease's own deadline ({@link LeaseEvents.Loss#killAtNanos()}).
 */
final class TakenLease {

    /** What decides the run. Called on the lease's threads: return quickly. */
    interface Listener {

        /** Held by this process from now on (taken, or an earlier take of it adopted). */
        void taken();

        /** The bus refuses the bucket and nobody holds it: epoch 0. */
        void unleased();

        /** The epoch floor cannot be used, so the lease is not taken; {@code why} names the key. */
        void floorUnusable(String why);
    }

    private final ControllerLease lease;
    private final TickingClock clock;
    private final LeaseTiming timing;
    private TickingClock.Ticks ticks;

    TakenLease(LeaseStore store, EpochFloor floor, WallClockFloor wall, TickingClock clock, LeaseTiming timing, Holder me, Executor workers,
            Listener listener, CommandRun run) {
        this.clock = clock;
        this.timing = timing;
        LeaseEvents events = new Deciding(timing.renewEvery(), loss -> run.stop("the controller lease this command"
                + " took (epoch " + loss.standing().epoch() + ") was lost: " + loss.standing().reason(),
                loss.killAtNanos()), listener);
        this.lease = new ControllerLease(store, floor, wall, clock, timing, me, workers, workers, events);
    }

    /** One step now, to its end (each store call inside is bounded by the lease itself). */
    void firstStep() {
        lease.tick().join();
    }

    /** Steps every renew-every from now on, until {@link #release}. */
    synchronized void keepStepping() {
        if (ticks == null) {
            ticks = clock.every("leasehold-exec-lease", timing.renewEvery(), () -> Uni.createFrom().completionStage(lease::tick));
        }
    }

    Standing standing() {
        return lease.standing();
    }

    long epochForAct() throws ActRefused {
        return lease.epochForAct();
    }

    /** Stops stepping and gives the lease back when it is held; final (waits for a step still running). */
    void release() {
        synchronized (this) {
            if (ticks != null) {
                ticks.close();
            }
        }
        lease.release();
    }

    /** The log, and the listener told of what decides the run. */
    private static final class Deciding extends LoggedLeaseEvents {

        private final Listener listener;

        Deciding(Duration renewEvery, Consumer<Loss> onLost, Listener listener) {
            super(renewEvery, onLost);
            this.listener = listener;
        }

        @Override
        public void took(long epoch, LeaseStore.Versioned from) {
            super.took(epoch, from);
            listener.taken();
        }

        @Override
        public void adopted(long epoch) {
            super.adopted(epoch);
            listener.taken();
        }

        @Override
        public void unleased(String why) {
            super.unleased(why);
            listener.unleased();
        }

        @Override
        public void floorUnusable(String why) {
            listener.floorUnusable(why); // said once, as the reason CMD does not start
        }
    }
}
