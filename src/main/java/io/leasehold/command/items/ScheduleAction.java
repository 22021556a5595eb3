package io.leasehold.command.items;

import io.leasehold.spool.Pause;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.spool.ScheduleBook;
import io.leasehold.wire.ScheduleAnswer;
import java.io.IOException;
import java.util.stream.Collectors;
import picocli.CommandLine.Parameters;

/** A command on one schedule named on the command line: refused (exit 1) when the configuration has none of that name. */
abstract class ScheduleAction extends SpoolAction {

    @Parameters(paramLabel = "NAME", description = "The schedule's name (leasehold.schedules.\"<name>\".*).")
    String name;

    @Override
    final void run(OpenSpool spool) throws IOException {
        ScheduleFiring firing = spool.schedules();
        RecurringSchedule s = firing.schedule(name).orElseThrow(() -> new IOException("no schedule '" + name
                + "'" + (firing.schedules().isEmpty() ? ": none is configured here (this command reads the service's configuration: give it the same"
                        + " leasehold.schedules.<name>.* keys, in application.properties, LEASEHOLD_SCHEDULES_* or -D)"
                        : "; configured: " + firing.schedules().stream().map(RecurringSchedule::name)
                                .collect(Collectors.joining(", ")))));
        run(firing, s);
    }

    abstract void run(ScheduleFiring firing, RecurringSchedule s) throws IOException;

    /** A pause or resume, printed as {@code POST /schedules/{name}/pause} answers it. */
    void paused(ScheduleFiring firing, RecurringSchedule s, boolean paused) throws IOException {
        Pause p = firing.setPaused(s, paused, "command line");
        print(new ScheduleAnswer.PausedBy(p.paused(), p.since(), p.by()), new Table()
                .row("schedule", s.name()).row("paused", Boolean.toString(p.paused())).row("since", p.since().toString())
                .render());
    }
}
