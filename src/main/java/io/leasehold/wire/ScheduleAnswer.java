package io.leasehold.wire;

import io.leasehold.spool.Pause;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.schedule.ScheduleView;
import io.leasehold.spool.ScheduleBook;
import java.time.Instant;

/**
 * One schedule as {@code GET /schedules} and {@code schedules list} show it (docs/schedules.md).
 *
 * @param cron the cron expression, for a cron schedule
 * @param every the period, for an every schedule
 * @param pausedBy who paused or resumed it by hand, and when, if anyone did (the spool's word beats the configuration's)
 * @param timeZone the zone of a cron schedule (an every schedule has none)
 * @param next its next fire time; absent when it has none, or while it is paused
 * @param lastFired its last item, with the item's state now (absent once purged: "purged")
 * @param late a fire time fell over 60s ago and no instance has fired it
 * @param clockBehindMs how far this instance's clock is behind the schedule's mark, when it is
 * @param problem why this instance could not read or write the schedule's record in the spool, when it could not
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScheduleAnswer(String name, String cron, String every, String timeZone, String misfire, Integer maxCatchUp,
        boolean paused, PausedBy pausedBy, Instant next, LastFired lastFired, boolean late, Long clockBehindMs,
        String problem) {

    /** @param state the item's state now: pending, claimed, done, failed, ..., or "purged" */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LastFired(Instant fireTime, String id, String state, long epoch, String by) {
    }

    public record PausedBy(boolean paused, Instant since, String by) {
    }

    /** The view, with {@code lastState} the state of its last item now (null when it fired none). */
    public static ScheduleAnswer of(ScheduleView v, String lastState) {
        RecurringSchedule s = v.schedule();
        boolean cron = s.rule().equals("cron");
        ScheduleBook.Fired f = v.mark() == null ? null : v.mark().lastFired();
        Pause p = v.pause();
        return new ScheduleAnswer(s.name(), cron ? s.expression() : null, cron ? null : s.expression(),
                cron ? s.timeZone() : null,
                s.misfire().label(), s.misfire() == io.leasehold.core.Misfire.ALL ? s.maxCatchUp() : null, v.paused(),
                p == null ? null : new PausedBy(p.paused(), p.since(), p.by()), v.next(),
                f == null ? null : new LastFired(f.fireTime(), f.id(), lastState, f.epoch(), f.by()), v.late(),
                v.behind().isZero() ? null : v.behind().toMillis(), v.problem());
    }
}
