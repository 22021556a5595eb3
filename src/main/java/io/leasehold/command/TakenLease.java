package io.leasehold.command;

import io.leasehold.core.Clock;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.ControllerLease;
import io.leasehold.lease.Standing;
import io.smallrye.mutiny.Uni;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The controller lease taken by {@code lease exec} for one run of CMD: the service's own
 * {@link ControllerLease}, stepped every renew-every while CMD runs and given back after. Its steps and
 * the release run one at a time, and no step runs after the release (it would take the lease again).
 */
final class TakenLease {

    private final ControllerLease lease;
    private final Executor workers;
    private final Object turn = new Object();
    private boolean closed;
    private Clock.Ticks ticks;

    /** {@code lease}: {@code onLost -> new ControllerLease(..., onLost)}, so a loss stops the run. */
    TakenLease(Function<Consumer<Standing>, ControllerLease> lease, Executor workers, CommandRun run) {
        this.workers = workers;
        this.lease = lease.apply(lost -> run.stop("the controller lease this command took (epoch " + lost.epoch()
                + ") was lost: " + lost.reason()));
    }

    /** The first step: answers where this process stands afterwards (held, unleased, or waiting). */
    Standing firstStep() {
        step().await().indefinitely(); // each store call inside is bounded by the lease itself
        return lease.standing();
    }

    long epochForAct() throws ActRefused {
        return lease.epochForAct();
    }

    void keepRenewing(Clock clock, java.time.Duration every) {
        ticks = clock.every("leasehold-exec-lease", every, this::step);
    }

    private Uni<Void> step() {
        return Uni.createFrom().<Void>item(() -> {
            synchronized (turn) {
                if (!closed) {
                    lease.tick().await().indefinitely();
                }
            }
            return null;
        }).runSubscriptionOn(workers);
    }

    /** Stops the renewals and gives the lease back (when it is still held). */
    void release() {
        if (ticks != null) {
            ticks.close();
        }
        synchronized (turn) {
            closed = true;
            lease.release();
        }
    }
}
