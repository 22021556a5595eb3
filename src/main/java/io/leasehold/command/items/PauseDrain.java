package io.leasehold.command.items;

import picocli.CommandLine.Command;

/** {@code drain pause}: as {@code POST /drain/pause}. */
@Command(name = "pause", description = "Pause claiming for the whole fleet (kept in the spool): held work finishes, "
        + "no new attempt starts, until drain resume.")
final class PauseDrain extends DrainSwitchAction {

    @Override
    boolean paused() {
        return true;
    }
}
