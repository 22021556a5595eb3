package io.leasehold.testing;

import io.leasehold.core.Clock;
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
public class DrivenClock implements Clock {

    public static final Instant START = Instant.parse("2026-11-30T15:00:00Z");
    private static final Duration TICK_WAIT = Duration.ofSeconds(30);

    private volatile Instant now = START;
    /** Moves only with advance(): set() models a wall clock that jumps, which a monotonic one never does. */
    private volatile long monotonicNanos;
    private final List<Job> jobs = new CopyOnWriteArrayList<>();

    private final class Job implements Ticks {
        final String name;
        final Duration period;
        final Supplier<Uni<Void>> tick;
        Instant due;

        Job(String name, Duration period, Supplier<Uni<Void>> tick) {
            this.name = name;
            this.period = period;
            this.tick = tick;
            this.due = now.plus(period);
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

    /** The wait passes at once, in driven time only: no tick fires meanwhile. */
    @Override
    public Uni<Void> after(Duration delay) {
        pass(delay);
        return Uni.createFrom().voidItem();
    }

    /** Sets the time without firing anything (a clock that jumps, or a frozen process). */
    public void set(Instant instant) {
        now = instant;
    }

    /** Moves the time forward and fires every tick that fell due, in order, each to its end. */
    public void advance(Duration by) {
        Instant target = now.plus(by);
        while (true) {
            Job next = null;
            for (Job job : jobs) {
                if (!job.due.isAfter(target) && (next == null || job.due.isBefore(next.due))) {
                    next = job;
                }
            }
            if (next == null) {
                break;
            }
            if (next.due.isAfter(now)) {
                monotonicNanos += Duration.between(now, next.due).toNanos();
                now = next.due;
            }
            next.due = next.due.plus(next.period);
            next.fire();
        }
        if (target.isAfter(now)) { // a tick's after() may have moved the time past the target already
            monotonicNanos += Duration.between(now, target).toNanos();
            now = target;
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
