package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecountPaceTest {

    private static final long MS = 1_000_000L;
    private static final long HOUR = 3_600_000 * MS;

    @Test
    void theFirstRecountIsAlwaysDueWhateverTheMonotonicOrigin() {
        assertTrue(new RecountPace(HOUR).due(Long.MIN_VALUE + 1));
        assertTrue(new RecountPace(HOUR).due(-5 * MS));
        assertTrue(new RecountPace(HOUR).due(0));
    }

    @Test
    void aLongRecountOwesNineteenTimesItsLengthInIdleTime() {
        RecountPace pace = new RecountPace(HOUR);
        pace.ran(1_000 * MS, 1_400 * MS); // took 400 ms: nothing before 1,400 + 19 × 400 = 9,000 ms
        assertFalse(pace.due(1_400 * MS));
        assertFalse(pace.due(8_999 * MS));
        assertTrue(pace.due(9_000 * MS));
        assertTrue(pace.due(20_000 * MS));
    }

    @Test
    void aQuickRecountHoldsUpNoTick() {
        RecountPace pace = new RecountPace(HOUR);
        pace.ran(0, 2 * MS); // took 2 ms: due again 38 ms later, long before the next 5 s tick
        assertTrue(pace.due(5_000 * MS));
    }

    @Test
    void itsShareOfTheThreadStaysUnderOneTwentiethWhenEveryListingIsSlow() {
        RecountPace pace = new RecountPace(HOUR);
        long now = 0;
        long busy = 0;
        long tick = 1_000 * MS;
        for (int i = 0; i < 1_000; i++, now += tick) {
            if (pace.due(now)) {
                long took = 700 * MS; // each listing takes 0.7 of a tick
                pace.ran(now, now + took);
                busy += took;
            }
        }
        // One part in twenty of the time, give or take the one recount that began the count.
        assertTrue(busy - 700 * MS <= now / 20, busy / MS + " ms busy of " + now / MS + " ms");
        assertTrue(busy * 25 > now, "and no less than a tick's rounding allows: " + busy / MS + " ms busy");
    }

    @Test
    void aRecountStretchedByAFreezeOwesNoMoreThanTheCap() {
        RecountPace pace = new RecountPace(60_000 * MS); // twelve intervals of 5 s
        pace.ran(0, 600_000 * MS); // ten minutes: the process was frozen, not busy
        assertFalse(pace.due(659_999 * MS));
        assertTrue(pace.due(660_000 * MS), "a minute after the stall, not three hours");
    }

    @Test
    void withoutACapEveryRecountIsDueAtOnce() {
        RecountPace pace = new RecountPace(0);
        pace.ran(0, 400 * MS);
        assertTrue(pace.due(400 * MS));
    }

    @Test
    void aMonotonicClockNearItsWrapStillPaces() {
        RecountPace pace = new RecountPace(HOUR);
        long start = Long.MAX_VALUE - 100 * MS;
        pace.ran(start, start + 50 * MS); // ends near the wrap; the wait crosses it
        assertFalse(pace.due(start + 60 * MS));
        assertTrue(pace.due(start + 50 * MS + 19 * 50 * MS));
    }
}
