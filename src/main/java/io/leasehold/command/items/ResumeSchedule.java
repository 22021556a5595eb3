package io.leasehold.command.items;

import io.leasehold.core.RecurringSchedule;
import io.leasehold.schedule.ScheduleFiring;
import java.io.IOException;
import picocli.CommandLine.Command;

/** {@code schedules resume NAME}: as {@code POST /schedules/{name}/resume}; fire times of the pause are not caught up. */
@Command(name = "resume", description = "Resume the schedule for the whole fleet: its next fire time fires, none of the pause.")
final class ResumeSchedule extends ScheduleAction {

    @Override
    void run(ScheduleFiring firing, RecurringSchedule s) throws IOException {
        paused(firing, s, false);
    }
}
