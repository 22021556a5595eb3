package io.leasehold.directory;

/**
 * Keeps the census's recounts to a small share of one thread. In a spool of millions of settled items
 * one listing can take longer than a second; recounting it every {@code recount-every} regardless would
 * make the census the drain's largest cost. So after a recount that took {@code t}, the next one waits at
 * least {@code t × (}{@value #IDLE_PER_BUSY}{@code )}: at most one part in {@value #IDLE_PER_BUSY}+1 of the
 * thread's time, whatever the size. Small spools, whose listings take milliseconds, are recounted on every tick.
 * The wait is capped ({@code maxWaitNanos}): what is measured is time, not work, so a recount stretched by
 * a frozen process or a stalled disk must not leave the counts stale for nineteen times the stall.
 */
final class RecountPace {

    /** Idle time owed for each unit of time a recount took. */
    static final long IDLE_PER_BUSY = 19;

    private final long maxWaitNanos;
    private boolean ranBefore;
    private long notBeforeNanos;

    RecountPace(long maxWaitNanos) {
        if (maxWaitNanos < 0) {
            throw new IllegalArgumentException("a wait is not negative: " + maxWaitNanos);
        }
        this.maxWaitNanos = maxWaitNanos;
    }

    /** Whether a recount may begin at this monotonic time (compared by difference: the origin is arbitrary). */
    synchronized boolean due(long nowNanos) {
        return !ranBefore || nowNanos - notBeforeNanos >= 0;
    }

    /** A recount ran between these monotonic times. */
    synchronized void ran(long startNanos, long endNanos) {
        long took = Math.max(0, endNanos - startNanos);
        long owed = took > maxWaitNanos / IDLE_PER_BUSY ? maxWaitNanos : took * IDLE_PER_BUSY;
        notBeforeNanos = endNanos + owed;
        ranBefore = true;
    }
}
