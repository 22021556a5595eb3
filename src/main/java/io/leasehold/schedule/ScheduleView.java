package io.leasehold.schedule;

import io.leasehold.spool.Pause;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.spool.ScheduleBook;
import java.time.Duration;
import java.time.Instant;

/**
 * One schedule as this instance last saw it in the spool, kept in memory for the API, the status page and
 * the metrics, which read it with no file or network call.
 *
 * @param mark the spool's mark, null when no instance has written one yet
 * @param paused whether it is paused now (the spool's pause by hand, else the configuration)
 * @param pause the spool's pause or resume by hand, null when there was none
 * @param next the next fire time after the mark (or after now, when later), null when there is none or while paused
 * @param late a fire time fell more than {@link io.leasehold.core.DueFireTimes#LATE_AFTER} ago and nobody fired it
 * @param behind how far this instance's clock is behind the mark, when by more than max-skew (else zero)
 * @param firstSeenAt when this instance first looked, on its clock; null before its first look
 * @param seenAt when this instance looked last, on its clock; null before its first look
 * @param problem why the last look or fire failed (the spool unreachable, a refusal), null when it did not
 */
public record ScheduleView(RecurringSchedule schedule, ScheduleBook.Mark mark, boolean paused, Pause pause,
        Instant next, boolean late, Duration behind, Instant firstSeenAt, Instant seenAt, String problem) {

    static ScheduleView unseen(RecurringSchedule schedule) {
        return new ScheduleView(schedule, null, schedule.paused(), null, null, false, Duration.ZERO, null, null, null);
    }

    /** As seen, with a pause or resume by hand just kept in the spool (shown at once, not at the next tick). */
    ScheduleView with(Pause byHand) {
        Instant shown = byHand.paused() ? null : next != null ? next
                : schedule.recurrence().after(byHand.since()).orElse(null); // resumed: its next from now
        return new ScheduleView(schedule, mark, byHand.paused(), byHand, shown, late && !byHand.paused(), behind,
                firstSeenAt, seenAt, problem);
    }

    ScheduleView failed(String why) {
        return new ScheduleView(schedule, mark, paused, pause, next, late, behind, firstSeenAt == null ? seenAt : firstSeenAt,
                seenAt, why);
    }
}
