package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision alone: which fire times are due, what the mark becomes, on instants the test chooses. */
class DueFireTimesTest {

    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");

    static RecurringSchedule hourly(Misfire misfire, int maxCatchUp) {
        return new RecurringSchedule("hourly", new Every(Duration.ofHours(1)), "every", "1h", "UTC", "", misfire, maxCatchUp,
                false);
    }

    /** The mark at T0 and the clock 3h30m later: three fire times were missed (11:00, 12:00, 13:00). */
    private static DueFireTimes.Due afterThreeMissed(Misfire misfire, int maxCatchUp) {
        return DueFireTimes.at(hourly(misfire, maxCatchUp), Optional.of(T0), T0.plus(Duration.ofMinutes(210)), false);
    }

    @Test
    void latestFiresOneItemForTheLatestOfThreeMissedFireTimes() {
        DueFireTimes.Due due = afterThreeMissed(Misfire.LATEST, 100);
        assertEquals(List.of(T0.plusSeconds(3 * 3600)), due.fire());
        assertEquals(T0.plusSeconds(3 * 3600), due.mark());
        assertTrue(due.missed());
    }

    @Test
    void allFiresEachOfThreeMissedFireTimesOldestFirst() {
        DueFireTimes.Due due = afterThreeMissed(Misfire.ALL, 100);
        assertEquals(List.of(T0.plusSeconds(3600), T0.plusSeconds(7200), T0.plusSeconds(10800)), due.fire());
        assertFalse(due.missed());
    }

    @Test
    void maxCatchUpKeepsTheLatestMissedFireTimesAndPassesOverTheOlder() {
        DueFireTimes.Due due = afterThreeMissed(Misfire.ALL, 2);
        assertEquals(List.of(T0.plusSeconds(7200), T0.plusSeconds(10800)), due.fire());
        assertEquals(T0.plusSeconds(10800), due.mark());
        assertTrue(due.missed());
    }

    @Test
    void skipFiresNoneOfThreeMissedFireTimesAndMovesTheMarkPastThem() {
        DueFireTimes.Due due = afterThreeMissed(Misfire.SKIP, 100);
        assertEquals(List.of(), due.fire());
        assertEquals(T0.plusSeconds(10800), due.mark());
        assertTrue(due.missed());
    }

    @Test
    void skipStillFiresAFireTimeOnTimeThatIsNoLaterThanLateAfter() {
        RecurringSchedule s = hourly(Misfire.SKIP, 100);
        Instant fireTime = T0.plusSeconds(3600);
        assertEquals(List.of(fireTime), DueFireTimes.at(s, Optional.of(T0), fireTime.plus(DueFireTimes.LATE_AFTER), false).fire());
        assertEquals(List.of(), DueFireTimes.at(s, Optional.of(T0), fireTime.plus(DueFireTimes.LATE_AFTER).plusMillis(1), false).fire());
    }

    @Test
    void aFireTimeIsDueFromItsOwnInstantNotBefore() {
        RecurringSchedule s = hourly(Misfire.LATEST, 100);
        Instant fireTime = T0.plusSeconds(3600);
        assertEquals(List.of(), DueFireTimes.at(s, Optional.of(T0), fireTime.minusMillis(1), false).fire());
        assertEquals(List.of(fireTime), DueFireTimes.at(s, Optional.of(T0), fireTime, false).fire());
    }

    @Test
    void aFireTimeAtOrBeforeTheMarkIsNeverDueAgain() {
        RecurringSchedule s = hourly(Misfire.ALL, 100);
        Instant mark = T0.plusSeconds(3600);
        DueFireTimes.Due due = DueFireTimes.at(s, Optional.of(mark), mark.plusSeconds(1), false);
        assertEquals(List.of(), due.fire());
        assertEquals(mark, due.mark());
    }

    @Test
    void aClockSteppedBackBehindTheMarkFiresNothingAndSaysByHowMuch() {
        RecurringSchedule s = hourly(Misfire.ALL, 100);
        Instant mark = T0.plusSeconds(3 * 3600);
        Instant steppedBack = mark.minus(Duration.ofMinutes(70)); // an hour and more: 12:00 lies between, fired before
        DueFireTimes.Due due = DueFireTimes.at(s, Optional.of(mark), steppedBack, false);
        assertEquals(List.of(), due.fire());
        assertEquals(mark, due.mark());
        assertEquals(Duration.ofMinutes(70), due.behind());
    }

    @Test
    void aClockSteppedForwardIsAFailoverOfThatLengthTheMisfirePolicyDecides() {
        // Ticks each second up to 10:00:05 decide through 10:00; then the clock jumps to 13:30:05.
        RecurringSchedule s = hourly(Misfire.ALL, 100);
        Optional<Instant> mark = Optional.empty();
        for (int second = 1; second <= 5; second++) {
            mark = Optional.of(DueFireTimes.at(s, mark, T0.plusSeconds(second), false).mark());
        }
        assertEquals(T0, mark.get());
        Instant stepped = T0.plus(Duration.ofMinutes(210)).plusSeconds(5);
        assertEquals(List.of(T0.plusSeconds(3600), T0.plusSeconds(7200), T0.plusSeconds(10800)),
                DueFireTimes.at(s, mark, stepped, false).fire());
        assertEquals(List.of(T0.plusSeconds(10800)), DueFireTimes.at(hourly(Misfire.LATEST, 100), mark, stepped, false).fire());
    }

    @Test
    void aScheduleNoInstanceHasSeenStartsNowFiringNothingFromBefore() {
        RecurringSchedule s = hourly(Misfire.ALL, 100);
        Instant now = T0.plusSeconds(1800);
        DueFireTimes.Due due = DueFireTimes.at(s, Optional.empty(), now, false);
        assertEquals(List.of(), due.fire());
        assertEquals(T0, due.mark());
        assertEquals(List.of(T0.plusSeconds(3600)), DueFireTimes.at(s, Optional.of(due.mark()), T0.plusSeconds(3600), false).fire());
    }

    @Test
    void aPausedScheduleFiresNothingAndItsMarkStillMovesSoAResumeDoesNotCatchUp() {
        RecurringSchedule s = hourly(Misfire.ALL, 100);
        DueFireTimes.Due paused = DueFireTimes.at(s, Optional.of(T0), T0.plusSeconds(3 * 3600 + 5), true);
        assertEquals(List.of(), paused.fire());
        assertEquals(T0.plusSeconds(3 * 3600), paused.mark());
        assertEquals(List.of(), DueFireTimes.at(s, Optional.of(paused.mark()), T0.plusSeconds(3 * 3600 + 6), false).fire());
    }

    @Test
    void aScheduleIsLateOnceItsNextFireTimeAfterTheMarkFellMoreThanLateAfterAgo() {
        RecurringSchedule s = hourly(Misfire.LATEST, 100);
        Instant fireTime = T0.plusSeconds(3600);
        assertFalse(DueFireTimes.late(s, Optional.of(T0), fireTime.plus(DueFireTimes.LATE_AFTER), false));
        assertTrue(DueFireTimes.late(s, Optional.of(T0), fireTime.plus(DueFireTimes.LATE_AFTER).plusMillis(1), false));
        assertFalse(DueFireTimes.late(s, Optional.of(T0), fireTime.plusSeconds(3600), true)); // paused: not late
        assertFalse(DueFireTimes.late(s, Optional.empty(), fireTime.plusSeconds(3600), false)); // not started
    }

    static RecurringSchedule everySecond(Misfire misfire, int maxCatchUp) {
        return new RecurringSchedule("fast", new Every(Duration.ofSeconds(1)), "every", "1s", "UTC", "", misfire,
                maxCatchUp, false);
    }

    @Test
    void aYearsOutageOfAOneSecondScheduleFiresTheMinuteOnTimeAndTheLatestMaxCatchUpOlderOnes() {
        Instant now = T0.plus(Duration.ofDays(365));
        DueFireTimes.Due due = DueFireTimes.at(everySecond(Misfire.ALL, 100), Optional.of(T0), now, false);
        assertEquals(61 + 100, due.fire().size(), "61 on time (now-60s..now), 100 misfired");
        assertEquals(now.minusSeconds(160), due.fire().get(0));
        assertEquals(now, due.fire().get(160));
        assertTrue(due.missed());
    }

    @Test
    void aTickTwoSecondsLateFiresBothFireTimesWhateverThePolicyForNeitherIsAMisfire() {
        Instant mark = T0;
        Instant now = T0.plusMillis(2_001); // the tick that should have come at 10:00:01 comes at 10:00:02.001
        for (Misfire m : Misfire.values()) {
            DueFireTimes.Due due = DueFireTimes.at(everySecond(m, 1), Optional.of(mark), now, false);
            assertEquals(List.of(T0.plusSeconds(1), T0.plusSeconds(2)), due.fire(), m.label());
            assertFalse(due.missed(), m.label());
        }
    }

    @Test
    void theMisfirePolicyDecidesOnlyFireTimesOlderThanLateAfterAndOnTimeOnesAreAllMade() {
        Instant now = T0.plusSeconds(90); // 10:00:01..10:00:29 misfired, 10:00:30..10:01:30 on time
        List<Instant> onTime = java.util.stream.IntStream.rangeClosed(30, 90).mapToObj(T0::plusSeconds).toList();
        DueFireTimes.Due skip = DueFireTimes.at(everySecond(Misfire.SKIP, 100), Optional.of(T0), now, false);
        assertEquals(onTime, skip.fire());
        assertTrue(skip.missed());
        DueFireTimes.Due latest = DueFireTimes.at(everySecond(Misfire.LATEST, 100), Optional.of(T0), now, false);
        assertEquals(T0.plusSeconds(29), latest.fire().get(0), "the latest misfired one, then the on-time ones");
        assertEquals(onTime, latest.fire().subList(1, latest.fire().size()));
        assertTrue(latest.missed());
        DueFireTimes.Due all = DueFireTimes.at(everySecond(Misfire.ALL, 100), Optional.of(T0), now, false);
        assertEquals(90, all.fire().size());
        assertFalse(all.missed());
        assertEquals(now, all.mark());
    }
}
