package io.leasehold.command.items;

import io.leasehold.core.RecurringSchedule;
import io.leasehold.schedule.ScheduleFiring;
import java.io.IOException;
import picocli.CommandLine.Command;

/** {@code schedules pause NAME}: as {@code POST /schedules/{name}/pause}, for the whole fleet. */
@Command(name = "pause", description = "Pause the schedule for the whole fleet (kept in the spool): its fire times pass without items.")
final class PauseSchedule extends ScheduleAction {

    @Override
    void run(ScheduleFiring firing, RecurringSchedule s) throws IOException {
        paused(firing, s, true);
    }
}
