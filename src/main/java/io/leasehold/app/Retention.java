package io.leasehold.app;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.Clock;
import io.leasehold.spool.BulkActions;
import io.leasehold.spool.ItemState;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Purges settled items older than {@code spool.done-max-age} / {@code spool.failed-max-age} at each
 * housekeeping tick, through {@link BulkActions}, and never more than one slice per state per tick: a
 * backlog of millions is worked off over many ticks while everything else goes on.
 */
@Singleton
public class Retention {

    private static final Logger LOG = Logger.getLogger(Retention.class);
    /** Per state and tick: at most this many items purged... */
    static final long MOVES_PER_TICK = 10_000;
    /** ...and no new batch after this long. */
    static final Duration TIME_PER_TICK = Duration.ofSeconds(10);
    static final BulkActions.Slice SLICE = new BulkActions.Slice(MOVES_PER_TICK, TIME_PER_TICK);

    private final BulkActions bulk;
    private final Clock clock;
    private final Duration doneMaxAge;
    private final Duration failedMaxAge;

    public Retention(BulkActions bulk, Clock clock, LeaseholdConfig config) {
        this.bulk = bulk;
        this.clock = clock;
        this.doneMaxAge = config.spool().doneMaxAge();
        this.failedMaxAge = config.spool().failedMaxAge();
    }

    /** One tick's slice of each state that has a max age; never fails (a failure is logged and tried next tick). */
    Uni<Void> tick() {
        return purge(ItemState.DONE, doneMaxAge).chain(() -> purge(ItemState.FAILED, failedMaxAge));
    }

    private Uni<Void> purge(ItemState state, Duration maxAge) {
        if (maxAge.isZero()) {
            return Uni.createFrom().voidItem();
        }
        Instant before = clock.now().minus(maxAge);
        return Uni.createFrom().completionStage(() -> bulk.purge(state, before, SLICE)).onItem().invoke(outcome -> {
            if (outcome.moved() > 0 || !outcome.finished()) {
                LOG.infof("retention purged %d %s items settled before %s%s", outcome.moved(), state.label(), before,
                        outcome.finished() ? "" : " (this tick's share; the rest at the next ticks)");
            }
        }).onFailure().invoke(e -> LOG.warnf("retention of %s items failed: %s; tried again at the next tick",
                state.label(), e.getMessage())).onFailure().recoverWithNull().replaceWithVoid();
    }
}
