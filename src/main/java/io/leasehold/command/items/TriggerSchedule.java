package io.leasehold.command.items;

import io.leasehold.core.RecurringSchedule;
import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.wire.Created;
import java.io.IOException;
import picocli.CommandLine.Command;

/** {@code schedules trigger NAME}: as {@code POST /schedules/{name}/trigger}, one item now. */
@Command(name = "trigger", description = "Fire the schedule now, by hand: one item <name>.manual-<instant>, paused or not.")
final class TriggerSchedule extends ScheduleAction {

    @Override
    void run(ScheduleFiring firing, RecurringSchedule s) throws IOException {
        String id = firing.trigger(s);
        print(new Created(id, "pending"), id + " pending");
    }
}
