package io.leasehold.command.items;

import picocli.CommandLine.Command;

/** {@code drain resume}: as {@code POST /drain/resume}. */
@Command(name = "resume", description = "Resume claiming for the whole fleet; every instance claims again within its poll interval.")
final class ResumeDrain extends DrainSwitchAction {

    @Override
    boolean paused() {
        return false;
    }
}
