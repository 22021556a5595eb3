package io.leasehold.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.stats.ActivitySeries.Count;
import io.leasehold.stats.ActivitySeries.Minute;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-minute series behind GET /stats: what each minute holds, the window, and its bounded memory. */
class ActivitySeriesTest {

    private static final Instant START = Instant.parse("2026-12-07T10:00:30Z");

    @Test
    void countsFallInTheMinuteOfTheirTimeAndGaugesKeepTheLastSample() {
        ActivitySeries s = new ActivitySeries(START);
        s.count(Count.DONE, START, 2);
        s.count(Count.ENQUEUED, START.plusSeconds(29), 5);
        s.sample(START, 7, 1000);
        s.sample(START.plusSeconds(20), 4, 3000);
        s.count(Count.FAILED, START.plusSeconds(30), 1); // 10:01:00, the next minute
        s.count(Count.RETRIED, START.plusSeconds(95), 3); // 10:02:05
        List<Minute> w = s.window(START.plusSeconds(150), Duration.ofHours(1));
        assertEquals(List.of(new Minute(Instant.parse("2026-12-07T10:00:00Z"), 2, 0, 0, 5, 4L, 3000L),
                new Minute(Instant.parse("2026-12-07T10:01:00Z"), 0, 1, 0, 0, null, null),
                new Minute(Instant.parse("2026-12-07T10:02:00Z"), 0, 0, 3, 0, null, null),
                new Minute(Instant.parse("2026-12-07T10:03:00Z"), 0, 0, 0, 0, null, null)), w);
    }

    @Test
    void theWindowEndsAtTheMinuteNowAndStartsNoEarlierThanTheStartNorThanItsLength() {
        ActivitySeries s = new ActivitySeries(START);
        Instant later = START.plus(Duration.ofHours(3));
        assertEquals(60, s.window(later, Duration.ofHours(1)).size());
        assertEquals(Instant.parse("2026-12-07T12:01:00Z"), s.window(later, Duration.ofHours(1)).get(0).at());
        assertEquals(181, s.window(later, Duration.ofHours(24)).size(), "none before the start");
        assertEquals(1, s.window(START, Duration.ofHours(1)).size());
    }

    @Test
    void aMinuteADayOldIsForgottenWhenItsSlotComesRoundAndOneOlderThanTheRingIsDropped() {
        ActivitySeries s = new ActivitySeries(START);
        s.count(Count.DONE, START, 9);
        Instant nextDay = START.plus(Duration.ofMinutes(ActivitySeries.MINUTES));
        s.count(Count.DONE, nextDay, 1); // the same slot, a day later
        assertEquals(1, s.window(nextDay, Duration.ofMinutes(1)).get(0).done());
        s.count(Count.DONE, START, 100); // a clock stepped back a day: not kept, nothing overwritten
        assertEquals(1, s.window(nextDay, Duration.ofMinutes(1)).get(0).done());
        assertEquals(ActivitySeries.MINUTES, s.window(nextDay.plusSeconds(3600), Duration.ofHours(48)).size(), "a day at most");
        assertNull(s.window(nextDay, Duration.ofMinutes(1)).get(0).pending());
    }

    /**
     * The memory bound, measured: building a series allocates its whole ring at once (about 82 KB: 1,440 minutes of
     * six longs and a flag), and a million counts and samples over months allocate nothing more.
     */
    @Test
    void itsMemoryIsAllocatedOnceAndAMillionCountsAddNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        ActivitySeries s = new ActivitySeries(START);
        long built = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(built > 80_000 && built < 90_000, "the ring: " + built + " bytes");
        Count[] kinds = Count.values();
        long baseline = counted(threads, id, null, kinds); // the loop's own times, without the series
        long counting = counted(threads, id, s, kinds);
        assertTrue(counting - baseline <= 4096, "a million counts allocated " + (counting - baseline) + " bytes more than"
                + " the loop's own " + baseline);
        assertEquals(ActivitySeries.MINUTES, s.window(START.plusSeconds(7_000_000), Duration.ofHours(24)).size());
    }

    private static long counted(com.sun.management.ThreadMXBean threads, long id, ActivitySeries s, Count[] kinds) {
        long before = threads.getThreadAllocatedBytes(id);
        Instant t = START;
        for (int i = 0; i < 1_000_000; i++) {
            t = t.plusSeconds(7); // over 80 days: every slot of the ring reused many times
            if (s != null) {
                s.count(kinds[i & 3], t, 1);
                if ((i & 7) == 0) {
                    s.sample(t, i, i);
                }
            }
        }
        return threads.getThreadAllocatedBytes(id) - before;
    }
}
