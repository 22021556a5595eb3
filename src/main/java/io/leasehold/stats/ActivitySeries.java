package io.leasehold.stats;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * This instance's activity per minute of the wall clock, over the last {@link #MINUTES}: items done, failed,
 * retried and enqueued (counts), and the pending count and oldest pending age (the last sample of each
 * minute). A ring of fixed arrays: the memory is the same after a minute or a year, at any rate of items
 * (docs/operations.md, "Charts"). A minute's slot is reused when the ring comes round to it again.
 */
public final class ActivitySeries {

    /** A day of minutes: the longest window asked for. */
    public static final int MINUTES = 1440;

    /** What is counted per minute. */
    public enum Count { DONE, FAILED, RETRIED, ENQUEUED }

    /** One minute: the counts that fell in it, and the last sample of the gauges (null when none was taken). */
    public record Minute(Instant at, long done, long failed, long retried, long enqueued, Long pending,
            Long oldestPendingAgeMs) {
    }

    private final long[] minuteOf = new long[MINUTES];
    private final long[][] counts = new long[Count.values().length][MINUTES];
    private final long[] pending = new long[MINUTES];
    private final long[] oldest = new long[MINUTES];
    private final boolean[] sampled = new boolean[MINUTES];
    private final long startMinute;

    /** @param start when this instance started: no minute before it is answered */
    public ActivitySeries(Instant start) {
        Arrays.fill(minuteOf, Long.MIN_VALUE);
        this.startMinute = minute(start);
    }

    public synchronized void count(Count what, Instant at, long n) {
        int slot = slot(minute(at));
        if (slot >= 0) {
            counts[what.ordinal()][slot] += n;
        }
    }

    public synchronized void sample(Instant at, long pendingNow, long oldestMs) {
        int slot = slot(minute(at));
        if (slot < 0) {
            return;
        }
        pending[slot] = pendingNow;
        oldest[slot] = oldestMs;
        sampled[slot] = true;
    }

    /** The minutes of the last {@code window} up to {@code now}'s, oldest first, none before the start. */
    public synchronized List<Minute> window(Instant now, Duration window) {
        long last = minute(now);
        long first = Math.max(startMinute, last - Math.min(MINUTES, Math.max(1, window.toMinutes())) + 1);
        List<Minute> out = new ArrayList<>((int) Math.max(0, last - first + 1));
        for (long m = first; m <= last; m++) {
            int slot = Math.floorMod(m, MINUTES);
            boolean ours = minuteOf[slot] == m;
            out.add(new Minute(Instant.ofEpochSecond(m * 60), ours ? counts[0][slot] : 0, ours ? counts[1][slot] : 0,
                    ours ? counts[2][slot] : 0, ours ? counts[3][slot] : 0,
                    ours && sampled[slot] ? pending[slot] : null, ours && sampled[slot] ? oldest[slot] : null));
        }
        return out;
    }

    /**
     * The slot of minute {@code m}, emptied first when it last held an older minute; -1 for a minute older than
     * the ring holds (a clock stepped back over a day), which is not kept.
     */
    private int slot(long m) {
        int slot = Math.floorMod(m, MINUTES);
        if (minuteOf[slot] != m) {
            if (minuteOf[slot] > m) {
                return -1;
            }
            minuteOf[slot] = m;
            for (long[] c : counts) {
                c[slot] = 0;
            }
            sampled[slot] = false;
        }
        return slot;
    }

    private static long minute(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), 60);
    }
}
