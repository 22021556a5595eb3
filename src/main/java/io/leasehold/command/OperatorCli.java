package io.leasehold.command;

import io.leasehold.command.items.CommandFailures;
import io.leasehold.command.items.ItemsCommand;
import io.leasehold.command.items.LeaseUsage;
import io.leasehold.command.items.SpoolCommand;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The jar's command line: {@code items ...}, {@code spool ...}, {@code lease ...}, {@code help},
 * {@code --help} and {@code --version}, in plain Java without booting Quarkus (no HTTP server, no drain).
 * Exit 0 when done, 1 when it could not be done (bad configuration, no spool, no such item, refused), 2 for
 * a command line that says nothing sensible. {@code lease ...} keeps its own parser ({@link Invocation}).
 */
@Command(name = "leasehold", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        scope = CommandLine.ScopeType.INHERIT, usageHelpAutoWidth = false,
        subcommands = {ItemsCommand.class, SpoolCommand.class, LeaseUsage.class, CommandLine.HelpCommand.class},
        description = {"Work items shared by instances through a spool; run as java -jar quarkus-run.jar "
                + "COMMAND (or the native runner). With no arguments at all the service starts.",
            "Configuration: the service's own (application.properties, also ./config/, profiles, environment "
                + "such as LEASEHOLD_SPOOL_DIR, -Dleasehold.spool.dir=...)."},
        footer = {"", "Exit status: 0 done; 1 not done (bad configuration naming its key, no spool at "
                + "leasehold.spool.dir, no such item, refused by the item's state); 2 usage error."})
public final class OperatorCli implements Callable<Integer> {

    static final int USAGE = 2;

    /** What {@code items enqueue} reads when it is given no file, or {@code -}. */
    private final InputStream stdin;

    @Spec
    CommandSpec spec;

    private OperatorCli(InputStream stdin) {
        this.stdin = stdin;
    }

    public InputStream stdin() {
        return stdin;
    }

    /**
     * Whether {@code args} ask for a command rather than the service: any words at all, except JVM-style
     * {@code -D}/{@code -X} options a native runner may be handed. A misspelt command is a usage error,
     * never a service started by surprise on ./spool.
     */
    public static boolean wanted(String... args) {
        return args.length > 0 && !args[0].startsWith("-D") && !args[0].startsWith("-X");
    }

    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        if (args.length > 0 && args[0].equals("lease")) {
            return LeaseCommand.run(Arrays.asList(args).subList(1, args.length), out, err);
        }
        LeaseCommand.logToStderr("leasehold");
        CommandLine line = new CommandLine(new OperatorCli(in));
        line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        line.setParameterExceptionHandler(OperatorCli::usageError);
        line.setExecutionExceptionHandler(new CommandFailures());
        int status = line.execute(args);
        line.getOut().flush();
        line.getErr().flush();
        return status;
    }

    /** One line naming the problem, one with the command's synopsis: stderr, exit 2. */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine where = e.getCommandLine();
        PrintWriter err = where.getErr();
        err.println("leasehold: " + oneLine(e.getMessage()));
        err.println("usage: " + oneLine(where.getHelp().synopsis(0)) + " (" + where.getCommandSpec().qualifiedName()
                + " --help for more)");
        return USAGE;
    }

    private static String oneLine(String text) {
        return String.valueOf(text).strip().replaceAll("\\s+", " ");
    }

    /** Reached with no command word, only options that are neither --help nor --version. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is needed: items, spool or lease");
    }
}
