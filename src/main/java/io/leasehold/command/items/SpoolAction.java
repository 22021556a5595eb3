package io.leasehold.command.items;

import io.leasehold.clock.SystemClock;
import io.leasehold.command.CommandConfig;
import io.leasehold.command.CommandJson;
import io.leasehold.core.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A command that works on the spool: its arguments are checked first (a usage error never reads the
 * configuration), then the configuration is read, anything to read beforehand read, the spool opened, the work
 * done, the spool closed.
 */
abstract class SpoolAction implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print JSON, the HTTP API's shapes, instead of a table.")
    boolean json;

    @Override
    public final Integer call() throws Exception {
        // The command's one clock: its checks and its spool read the same time, through the port.
        try (SystemClock clock = SystemClock.forCommands()) {
            check(clock);
            CommandConfig config = CommandConfig.fromSystem();
            try (AutoCloseable prepared = prepare(config); OpenSpool spool = OpenSpool.open(config, createsSpool(), clock)) {
                run(spool);
            }
        }
        return 0;
    }

    /** Refuses arguments that go together badly ({@link #usage}); picocli has checked each alone. */
    void check(Clock clock) {
    }

    /** Work done before the spool is opened or made (reading an enqueue's payload), undone after the command. */
    AutoCloseable prepare(CommandConfig config) throws IOException {
        return () -> {
        };
    }

    /** Whether the spool's folders are made when missing (only a command that adds items). */
    boolean createsSpool() {
        return false;
    }

    abstract void run(OpenSpool spool) throws IOException;

    /** {@code shape} as JSON with {@code --json}, else {@code table}. */
    void print(Object shape, String table) {
        PrintWriter out = spec.commandLine().getOut();
        out.println(json ? CommandJson.write(shape) : table);
        out.flush();
    }

    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
