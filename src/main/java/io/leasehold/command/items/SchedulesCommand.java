package io.leasehold.command.items;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code schedules ...}: the recurring schedules of the configuration, on the spool's marks and pauses. */
@Command(name = "schedules", description = "List the recurring schedules, fire one by hand, pause or resume one for the fleet.",
        subcommands = {ListSchedules.class, TriggerSchedule.class, PauseSchedule.class, ResumeSchedule.class})
public final class SchedulesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "schedules needs a subcommand: list, trigger, pause or resume");
    }
}
