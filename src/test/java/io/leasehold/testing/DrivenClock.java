package io.leasehold.testing;

import io.leasehold.clock.TickingClock;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A clock the test drives: it sets the time and fires ticks, and each tick has finished when the
 * call returns. Replaces the system clock in every {@code @QuarkusTest}; plain unit tests construct
 * it directly. Nothing here ever sleeps.
 */
@Alternative
@Priority(1)
@Singleton
public class DrivenClock implements TickingClock {

    public static final Instant START = Instant.parse("2026-11-30T15:00:00Z");
    private static final Duration TICK_WAIT = Duration.ofSeconds(30);

    private volatile Instant now = START;
    /** Moves only with advance(): set() models a wall clock that jumps, which a monotonic one never does. */
    private volatile long monotonicNanos;
    private final List<Job> jobs = new CopyOnWriteArrayList<>();
    private final List<Pending> timers = new CopyOnWriteArrayList<>();

    /** Compared by identity: two timers due at once with the same task are still two. */
    private static final class Pending {
        final long due;
        final Runnable task;

        Pending(long due, Runnable task) {
            this.due = due;
            this.task = task;
        }
    }

    private final class Job implements Ticks {
        final String name;
        final Duration period;
        final Supplier<Uni<Void>> tick;
        /**
         * On the monotonic clock, as the system clocks time their ticks: a set() neither stops nor bunches
         * them. The first falls due a period after every(), as on the command line's clock (the service's
         * runs its first at once: no test here stands on that).
         */
        long due;

        Job(String name, Duration period, Supplier<Uni<Void>> tick) {
            this.name = name;
            this.period = period;
            this.tick = tick;
            this.due = monotonicNanos + period.toNanos();
        }

        void fire() {
            tick.get().await().atMost(TICK_WAIT);
        }

        @Override
        public void close() {
            jobs.remove(this);
        }
    }

    @Override
    public Instant now() {
        return now;
    }

    @Override
    public long monotonicNanos() {
        return monotonicNanos;
    }

    @Override
    public Ticks every(String name, Duration period, Supplier<Uni<Void>> tick) {
        Job job = new Job(name, period, tick);
        jobs.add(job);
        return job;
    }

    /** Fires inside {@link #advance} when the monotonic time reaches it, in order with the ticks. */
    @Override
    public Timer timer(String name, Duration delay, Runnable task) {
        Pending pending = new Pending(monotonicNanos + Math.max(0, delay.toNanos()), task);
        timers.add(pending);
        return () -> timers.remove(pending);
    }

    /** Sets the wall clock without firing anything (a clock that jumps); ticks and timers keep their times. */
    public void set(Instant instant) {
        now = instant;
    }

    /**
     * Moves the time forward and fires every tick and timer that fell due, in order, each to its end.
     * Ticks and timers fall due on the monotonic clock, as on the system clocks; the wall clock moves with it.
     */
    public void advance(Duration by) {
        long target = monotonicNanos + by.toNanos();
        while (true) {
            Job nextJob = null;
            for (Job job : jobs) {
                if (nextJob == null || job.due < nextJob.due) {
                    nextJob = job;
                }
            }
            long jobAt = nextJob == null ? Long.MAX_VALUE : Math.max(monotonicNanos, nextJob.due);
            Pending nextTimer = null;
            for (Pending timer : timers) {
                if (nextTimer == null || timer.due < nextTimer.due) {
                    nextTimer = timer;
                }
            }
            long timerAt = nextTimer == null ? Long.MAX_VALUE : Math.max(monotonicNanos, nextTimer.due);
            long at = Math.min(jobAt, timerAt);
            if (at > target) {
                break;
            }
            pass(Duration.ofNanos(at - monotonicNanos));
            if (timerAt <= jobAt) {
                timers.remove(nextTimer);
                nextTimer.task.run();
            } else {
                nextJob.due = monotonicNanos + nextJob.period.toNanos(); // fixed delay: once after a pass(), not bunched
                nextJob.fire();
            }
        }
        if (target > monotonicNanos) {
            pass(Duration.ofNanos(target - monotonicNanos));
        }
    }

    /** Time passes and no tick fires: what a frozen (SIGSTOPped) process sees when it wakes up. */
    public void pass(Duration by) {
        monotonicNanos += by.toNanos();
        now = now.plus(by);
    }

    /** Fires every tick registered under {@code name} now, each to its end. */
    public void tick(String name) {
        boolean found = false;
        for (Job job : jobs) {
            if (job.name.equals(name)) {
                job.fire();
                found = true;
            }
        }
        if (!found) {
            throw new IllegalStateException("no tick named " + name + " is registered");
        }
    }
}
