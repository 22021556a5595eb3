package io.leasehold.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.DueFireTimes;
import io.leasehold.core.InvalidSetting;
import io.leasehold.core.Misfire;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.testing.DrivenClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Cron schedules in a zone with daylight saving, fired by the decision on the driven clock ticked every 10s
 * across the change: what fires in a skipped hour and in a doubled one.
 */
class CronRecurrenceTest {

    private static RecurringSchedule cron(String expression, String zone) {
        return new RecurringSchedule("c", CronRecurrence.parse("leasehold.schedules.c.cron", expression,
                "leasehold.schedules.c.time-zone", zone), "cron", expression, zone, "", Misfire.ALL, 100, false);
    }

    /** Ticks from {@code from} to {@code to} every 10s on the driven clock, as a holder would: the fire times fired. */
    private static List<Instant> fired(RecurringSchedule s, Instant from, Instant to) {
        DrivenClock clock = new DrivenClock();
        clock.set(from);
        Optional<Instant> mark = Optional.empty();
        List<Instant> fired = new ArrayList<>();
        while (!clock.now().isAfter(to)) {
            DueFireTimes.Due due = DueFireTimes.at(s, mark, clock.now(), false);
            fired.addAll(due.fire());
            mark = Optional.of(due.mark());
            clock.advance(Duration.ofSeconds(10));
        }
        return fired;
    }

    @Test
    void aDailyFireTimeInTheHourClocksSkipIsNotFiredThatDayAndOnTimeTheDaysAround() {
        // Europe/Berlin, 2027-03-28: 02:00 CET becomes 03:00 CEST; 02:30 does not exist that day.
        List<Instant> fired = fired(cron("0 30 2 * * ?", "Europe/Berlin"), Instant.parse("2027-03-26T12:00:00Z"),
                Instant.parse("2027-03-29T12:00:00Z"));
        assertEquals(List.of(Instant.parse("2027-03-27T01:30:00Z"), Instant.parse("2027-03-29T00:30:00Z")), fired);
    }

    @Test
    void aDailyFireTimeInTheHourClocksRepeatIsFiredOnceAtItsFirstOccurrence() {
        // Europe/Berlin, 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice (00:30Z and 01:30Z).
        List<Instant> fired = fired(cron("0 30 2 * * ?", "Europe/Berlin"), Instant.parse("2026-10-24T12:00:00Z"),
                Instant.parse("2026-10-26T12:00:00Z"));
        assertEquals(List.of(Instant.parse("2026-10-25T00:30:00Z"), Instant.parse("2026-10-26T01:30:00Z")), fired);
    }

    @Test
    void theFireTimesAreTheSameLookingForwardOrBackFromAnyInstantOfTheDoubledHour() {
        RecurringSchedule s = cron("0 30 2 * * ?", "Europe/Berlin");
        for (String inside : List.of("2026-10-25T00:45:00Z", "2026-10-25T01:29:00Z", "2026-10-25T01:30:00Z",
                "2026-10-25T01:31:00Z")) {
            Instant t = Instant.parse(inside);
            assertEquals(Instant.parse("2026-10-26T01:30:00Z"), s.recurrence().after(t).orElseThrow(), inside);
            assertEquals(Instant.parse("2026-10-25T00:30:00Z"), s.recurrence().atOrBefore(t).orElseThrow(), inside);
        }
    }

    @Test
    void everyHalfHourFiresEachRealHalfHourThroughBothChangesNoneTwice() {
        RecurringSchedule s = cron("0 0/30 * * * ?", "Europe/Berlin");
        List<Instant> back = fired(s, Instant.parse("2026-10-24T22:00:00Z"), Instant.parse("2026-10-25T04:00:00Z"));
        assertEquals(12, back.size()); // six real hours, the doubled local hour included
        List<Instant> forward = fired(s, Instant.parse("2027-03-27T22:00:00Z"), Instant.parse("2027-03-28T04:00:00Z"));
        assertEquals(12, forward.size());
        for (List<Instant> run : List.of(back, forward)) {
            for (int i = 1; i < run.size(); i++) {
                assertEquals(Duration.ofMinutes(30), Duration.between(run.get(i - 1), run.get(i)), run.toString());
            }
        }
    }

    @Test
    void aCronIsReadInItsZone() {
        RecurringSchedule s = cron("0 0 2 * * ?", "America/New_York");
        assertEquals(Instant.parse("2026-12-07T07:00:00Z"), s.recurrence().after(Instant.parse("2026-12-07T00:00:00Z")).orElseThrow());
    }

    @Test
    void aBadCronOrZoneIsRefusedNamingItsKeyAndTheFix() {
        InvalidSetting bad = assertThrows(InvalidSetting.class, () -> cron("0 0 2 * *", "UTC"));
        assertEquals("leasehold.schedules.c.cron", bad.key());
        assertTrue(bad.rule().startsWith("must be a cron expression with seconds, such as '0 0 2 * * ?'"), bad.rule());
        assertTrue(bad.rule().contains("got '0 0 2 * *'"), bad.rule());
        assertThrows(InvalidSetting.class, () -> cron("0 0 2 * * MON", "UTC")); // both days given: Quartz wants one '?'
        assertThrows(InvalidSetting.class, () -> cron("0 0 25 * * ?", "UTC"));
        InvalidSetting zone = assertThrows(InvalidSetting.class, () -> cron("0 0 2 * * ?", "Mars/Olympus"));
        assertEquals("leasehold.schedules.c.time-zone", zone.key());
        assertEquals("must be a time zone such as UTC or Europe/Berlin, got 'Mars/Olympus'", zone.rule());
    }
}
