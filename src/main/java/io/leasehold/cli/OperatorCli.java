package io.leasehold.cli;

import io.leasehold.command.BuildVersion;
import io.leasehold.command.LeaseCommand;
import io.leasehold.command.items.CommandFailures;
import io.leasehold.command.items.DrainCommand;
import io.leasehold.command.items.ItemsCommand;
import io.leasehold.command.items.SchedulesCommand;
import io.leasehold.command.items.SpoolCommand;
import io.leasehold.command.items.StandardInput;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The jar's command line: {@code items ...}, {@code spool ...}, {@code schedules ...}, {@code lease ...}, {@code help},
 * {@code --help} and {@code --version}, in plain Java without booting Quarkus (no HTTP server, no drain).
 * Exit 0 when done, 1 when it could not be done (bad configuration, no spool, no such item, refused), 2 for
 * a command line that says nothing sensible. {@code lease ...} keeps its own parser ({@link Invocation}).
 */
// Named by the jar's invocation, as lease's usage (Invocation) names it: usage lines show what to type.
@Command(name = "java -jar quarkus-run.jar", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        scope = CommandLine.ScopeType.INHERIT, usageHelpAutoWidth = false,
        subcommands = {ItemsCommand.class, SpoolCommand.class, SchedulesCommand.class, DrainCommand.class, LeaseUsage.class,
            CommandLine.HelpCommand.class},
        description = {"Work items shared by instances through a spool.",
            "Run as java -jar quarkus-run.jar COMMAND, or the native runner with COMMAND; with no arguments at "
                + "all the service starts.",
            "Configuration: the service's own (application.properties, also ./config/, profiles, environment "
                + "such as LEASEHOLD_SPOOL_DIR, -Dleasehold.spool.dir=...)."},
        footer = {"", "Exit status: 0 done; 1 not done (bad configuration naming its key, no spool at "
                + "leasehold.spool.dir, no such item, refused by the item's state); 2 usage error."})
public final class OperatorCli implements Callable<Integer>, StandardInput {

    static final int USAGE = 2;

    /**
     * The native binary. Its image is built not to read runtime options from the command line
     * ({@code -H:-ParseRuntimeOptions}, docs/native.md), so every word reaches {@code main} as the jar's do.
     */
    private static final boolean NATIVE = "runtime".equals(System.getProperty("org.graalvm.nativeimage.imagecode"));

    /** What {@code items enqueue} reads when it is given no file, or {@code -}. */
    private final InputStream stdin;
    private final boolean stdinIsTerminal;

    @Spec
    CommandSpec spec;

    private OperatorCli(InputStream stdin, boolean stdinIsTerminal) {
        this.stdin = stdin;
        this.stdinIsTerminal = stdinIsTerminal;
    }

    @Override
    public InputStream stdin() {
        return stdin;
    }

    @Override
    public boolean stdinIsTerminal() {
        return stdinIsTerminal;
    }

    /**
     * Whether the process's stdin is a terminal. Stdin alone: the JDK's console needs stdout to be one too,
     * so {@code items enqueue --id x > out.json} typed at a terminal would wait on the keyboard unseen. On
     * Linux the descriptor's link names the device; elsewhere the console is the best the JDK tells.
     */
    private static boolean onTerminal() {
        try {
            String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/0")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (java.io.IOException | UnsupportedOperationException e) {
            return System.console() != null;
        }
    }

    /**
     * The words left once leading {@code -Dkey=value} words are set as system properties, as a native
     * runner does before {@code main}: after {@code -jar} the JVM hands them to {@code main} as plain words,
     * so {@code java -jar quarkus-run.jar -Dleasehold.spool.dir=/x items list} is the command on /x (and
     * with nothing left the service starts with them set), never the service on ./spool.
     */
    public static String[] settings(String... args) {
        int i = 0;
        for (; i < args.length && args[i].startsWith("-D") && args[i].length() > 2; i++) {
            int eq = args[i].indexOf('=');
            if (eq == 2) {
                break; // "-D=x" names no key: a usage error below, not a property
            }
            // -Dkey alone is key="", as the JVM takes it.
            System.setProperty(eq < 0 ? args[i].substring(2) : args[i].substring(2, eq), eq < 0 ? "" : args[i].substring(eq + 1));
        }
        return Arrays.copyOfRange(args, i, args.length);
    }

    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        return run(args, out, err, in, in == System.in && onTerminal());
    }

    static int run(String[] args, PrintStream out, PrintStream err, InputStream in, boolean inIsTerminal) {
        return run(args, out, err, in, inIsTerminal, NATIVE);
    }

    static int run(String[] args, PrintStream out, PrintStream err, InputStream in, boolean inIsTerminal,
            boolean nativeRunner) {
        if (args.length > 0 && args[0].startsWith("-X")) {
            // Neither form reads it here: say so rather than a puzzling "unknown option".
            err.println(nativeRunner
                    ? "leasehold: the native binary reads no JVM options (" + args[0] + "); its heap is a share of the"
                            + " memory it is given, or set when it is built: -R:MaxHeapSize=... (docs/native.md)"
                    : "leasehold: JVM options go before -jar: java " + args[0] + " -jar quarkus-run.jar ...");
            err.flush();
            return USAGE;
        }
        if (args.length > 0 && args[0].equals("lease")) {
            return LeaseCommand.run(Arrays.asList(args).subList(1, args.length), out, err);
        }
        LeaseCommand.logToStderr("leasehold");
        CommandLine line = new CommandLine(new OperatorCli(in, inIsTerminal));
        line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        // "@file" words would be read as more words: items show @x would read ./x.
        line.setExpandAtFiles(false);
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
        err.println("leasehold: " + problem(e) + suggestion(e));
        err.println("usage: " + oneLine(where.getHelp().synopsis(0)) + " (" + where.getCommandSpec().qualifiedName()
                + " --help for more)");
        return USAGE;
    }

    /** picocli's words, but a word that is no command said as that ("Unmatched argument at index 1" is not). */
    private static String problem(CommandLine.ParameterException e) {
        CommandLine where = e.getCommandLine();
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-") && !where.getSubcommands().isEmpty()) {
            String root = where.getCommandSpec().root().qualifiedName();
            String path = where.getCommandSpec().qualifiedName().substring(root.length()).strip();
            return "'" + unmatched.getUnmatched().get(0) + "' is not a command" + (path.isEmpty() ? "" : " of " + path)
                    + " (" + String.join(", ", where.getSubcommands().keySet().stream()
                            .filter(name -> !name.equals("help")).toList()) + ")";
        }
        return oneLine(e.getMessage());
    }

    /** For a misspelt command or option, the closest valid ones, as picocli finds them. */
    static String suggestion(CommandLine.ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException unmatched)) {
            return "";
        }
        List<String> near = unmatched.getSuggestions();
        return near.isEmpty() ? "" : ": did you mean " + String.join(" or ", near.subList(0, Math.min(3, near.size())))
                + "?";
    }

    private static String oneLine(String text) {
        return String.valueOf(text).strip().replaceAll("\\s+", " ");
    }

    /** Reached with no command word, only options that are neither --help nor --version. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is needed: items, spool, schedules or lease");
    }
}
