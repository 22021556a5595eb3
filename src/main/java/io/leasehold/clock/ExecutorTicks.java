package io.leasehold.clock;

import io.leasehold.clock.TickingClock.Ticks;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Periodic ticks on a scheduled executor, which measures its delays on the monotonic clock: a wall
 * clock stepped back an hour (or forward) neither stops nor bunches them, and none is dropped by a
 * check that ran a millisecond late (the Quarkus scheduler, which compares wall-clock readings
 * truncated to the second, did both: with renew-every 1s and renew-deadline 2s one lost tick cost the
 * controller lease).
 *
 * <p>Each tick is subscribed to, not awaited, so one slow tick never holds up another. A tick never
 * runs twice at once: one that falls due while the previous one still runs is run once, as soon as that
 * one ends — a renewal answered late must not wait a whole period more, past its deadline.
 */
final class ExecutorTicks {

    private ExecutorTicks() {
    }

    /** Ticks every {@code period}, the first after {@code first}. */
    static Ticks every(ScheduledExecutorService on, String name, Duration first, Duration period,
            Supplier<Uni<Void>> tick, Logger log) {
        Job job = new Job(on, name, tick, log);
        ScheduledFuture<?> schedule = on.scheduleWithFixedDelay(job::due, Math.max(0, first.toNanos()),
                period.toNanos(), TimeUnit.NANOSECONDS);
        return () -> {
            job.close();
            schedule.cancel(false);
        };
    }

    /** One tick's runs; {@link #due} is called on {@code on}'s one thread, which also runs a missed one. */
    static final class Job {
        private final Executor on;
        private final String name;
        private final Supplier<Uni<Void>> tick;
        private final Logger log;
        private final AtomicBoolean running = new AtomicBoolean();
        private final AtomicBoolean missed = new AtomicBoolean();
        private volatile boolean closed;

        Job(Executor on, String name, Supplier<Uni<Void>> tick, Logger log) {
            this.on = on;
            this.name = name;
            this.tick = tick;
            this.log = log;
        }

        void close() {
            closed = true;
        }

        void due() {
            if (closed) {
                return;
            }
            if (!running.compareAndSet(false, true)) {
                missed.set(true);
                // It may have ended between the two steps: then no end is left to run this one.
                if (running.get() || !missed.compareAndSet(true, false)) {
                    return;
                }
                due();
                return;
            }
            try {
                tick.get().subscribe().with(done -> ended(), failure -> {
                    try {
                        // One line: a tick that keeps failing (a read of a store that is down) says so each time.
                        log.warnf("tick %s failed: %s", name, failure.toString());
                    } finally {
                        ended();
                    }
                });
            } catch (Throwable e) { // escaping here would cancel the schedule for good, silently
                try {
                    log.errorf(e, "tick %s failed", name);
                } finally {
                    ended();
                }
            }
        }

        private void ended() {
            running.set(false);
            if (missed.compareAndSet(true, false)) {
                try {
                    on.execute(this::due);
                } catch (RejectedExecutionException e) {
                    // The clock is shutting down: no tick is due any more.
                }
            }
        }
    }
}
