package io.leasehold.command.items;

import io.leasehold.wire.DrainState;
import java.io.IOException;
import picocli.CommandLine.Command;

/** {@code drain status}: as {@code GET /drain}, read from the spool itself. */
@Command(name = "status", description = "Whether the fleet's drain is paused, since when and by whom.")
final class DrainStatus extends SpoolAction {

    @Override
    void run(OpenSpool spool) throws IOException {
        printState(this, DrainState.of(spool.drainSwitch().pause()));
    }

    /** A state as {@code GET /drain} answers it, or as a table. */
    static void printState(SpoolAction command, DrainState state) {
        Table table = new Table().row("paused", Boolean.toString(state.paused()));
        if (state.since() != null) {
            table.row(state.paused() ? "since" : "resumed", state.since().toString()).row("by", state.by());
        }
        command.print(state, table.render());
    }
}
