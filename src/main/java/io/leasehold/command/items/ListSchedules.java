package io.leasehold.command.items;

import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.schedule.ScheduleView;
import io.leasehold.spool.ItemView;
import io.leasehold.wire.ScheduleAnswer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code schedules list}: as {@code GET /schedules}, each schedule's rule, next fire time, last item and its state. */
@Command(name = "list", description = "Each schedule: its rule, next fire time, last item and its state, paused, late.")
final class ListSchedules extends SpoolAction {

    @Override
    void run(OpenSpool spool) throws IOException {
        ScheduleFiring firing = spool.schedules();
        firing.tick(); // a look only: a command never fires
        List<ScheduleAnswer> answers = new ArrayList<>();
        Table table = new Table().row("NAME", "RULE", "NEXT", "LAST ITEM", "STATE", "PAUSED", "LATE");
        for (ScheduleView v : firing.views()) {
            if (v.problem() != null) {
                throw new IOException("schedule " + v.schedule().name() + ": " + v.problem());
            }
            String state = null;
            if (v.mark() != null && v.mark().lastFired() != null) {
                state = spool.store.lookup(v.mark().lastFired().id()).map(ItemView::state).orElse("purged");
            }
            ScheduleAnswer a = ScheduleAnswer.of(v, state);
            answers.add(a);
            table.row(a.name(), a.cron() != null ? "cron " + a.cron() + " " + a.timeZone() : "every " + a.every(),
                    a.next() == null ? null : a.next().toString(), a.lastFired() == null ? null : a.lastFired().id(), state,
                    Boolean.toString(a.paused()), a.late() ? "late" : "no");
        }
        print(answers, answers.isEmpty() ? "no schedules are configured here (this command reads the service's configuration:"
                + " give it the same leasehold.schedules.<name>.* keys, in application.properties, LEASEHOLD_SCHEDULES_* or -D)"
                : table.render());
    }
}
