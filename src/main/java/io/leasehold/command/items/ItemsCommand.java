package io.leasehold.command.items;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code items ...}: one subcommand per thing the API does to items. */
@Command(name = "items", description = "List, show, enqueue, cancel, retry and purge items of the spool.",
        subcommands = {ListItems.class, ShowItem.class, EnqueueItem.class, CancelItem.class, RetryItems.class,
            PurgeItems.class})
public final class ItemsCommand implements Callable<Integer> {

    @ParentCommand
    StandardInput root;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "items needs a subcommand: list, show, enqueue, cancel, retry or purge");
    }
}
