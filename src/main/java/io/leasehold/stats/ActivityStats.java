package io.leasehold.stats;

import io.leasehold.clock.TickingClock;
import io.leasehold.drain.AttemptEnd;
import io.leasehold.drain.DrainEvents;
import io.leasehold.spool.SpoolCounts;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Feeds this instance's {@link ActivitySeries}: the drain's settlements as they are told (done, failed, parked
 * for a retry), enqueues as the API answers them, and the spool's counts kept in memory sampled every
 * {@link #SAMPLE_EVERY} on the wall clock (no file or network call). What {@code GET /stats} answers.
 */
public final class ActivityStats implements DrainEvents, AutoCloseable {

    /** Four samples a minute: a minute's pending count is at most this old. */
    static final Duration SAMPLE_EVERY = Duration.ofSeconds(15);

    private final TickingClock clock;
    private final ActivitySeries series;
    private final Supplier<SpoolCounts> counts;
    private final TickingClock.Ticks sampling;

    public ActivityStats(TickingClock clock, Supplier<SpoolCounts> counts) {
        this.clock = clock;
        this.counts = counts;
        this.series = new ActivitySeries(clock.now());
        sample();
        this.sampling = clock.every("leasehold-stats", SAMPLE_EVERY, () -> {
            sample();
            return Uni.createFrom().voidItem();
        });
    }

    @Override
    public void settled(String id, AttemptEnd where) {
        switch (where) {
            case DONE -> series.count(ActivitySeries.Count.DONE, clock.now(), 1);
            case FAILED -> series.count(ActivitySeries.Count.FAILED, clock.now(), 1);
            case RETRIED -> series.count(ActivitySeries.Count.RETRIED, clock.now(), 1);
            default -> {
            }
        }
    }

    /** {@code n} items enqueued through this instance's API. */
    public void enqueued(long n) {
        series.count(ActivitySeries.Count.ENQUEUED, clock.now(), n);
    }

    /** The minutes of the last {@code window}, this one's gauges sampled now. */
    public List<ActivitySeries.Minute> window(Duration window) {
        sample();
        return series.window(clock.now(), window);
    }

    private void sample() {
        SpoolCounts now = counts.get();
        series.sample(clock.now(), now.pending(), now.oldestPendingAgeMs());
    }

    @Override
    public void close() {
        sampling.close();
    }
}
