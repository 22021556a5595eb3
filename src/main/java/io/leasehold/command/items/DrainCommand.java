package io.leasehold.command.items;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code drain ...}: the fleet's pause of claiming, kept in the spool. */
@Command(name = "drain", description = "Pause or resume claiming for the whole fleet, or show whether it is paused.",
        subcommands = {DrainStatus.class, PauseDrain.class, ResumeDrain.class})
public final class DrainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "drain needs a subcommand: status, pause or resume");
    }
}
