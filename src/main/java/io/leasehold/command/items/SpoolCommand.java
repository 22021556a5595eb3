package io.leasehold.command.items;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code spool ...}: the spool as a whole. */
@Command(name = "spool", description = "The spool as a whole.", subcommands = SpoolStatus.class)
public final class SpoolCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "spool needs a subcommand: status");
    }
}
