package io.leasehold.command;

import io.leasehold.config.ConfigCheck;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.PrintStream;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import org.jboss.logging.Logger;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * {@code java -jar quarkus-run.jar lease ...}: command mode, in plain Java. Quarkus is not booted, so
 * neither the HTTP server nor the drain starts (a service may already serve on the same host and port).
 * Answers the exit status: CMD's for {@code exec}; 1 for bad configuration (naming the key) or an
 * unreachable bus; 2 for a command line that says nothing sensible.
 */
public final class LeaseCommand {

    private static final Logger LOG = Logger.getLogger(LeaseCommand.class);
    static final int USAGE = 2;

    private LeaseCommand() {
    }

    public static int run(List<String> words, PrintStream out, PrintStream err) {
        Invocation invocation;
        try {
            invocation = Invocation.parse(words);
        } catch (UsageException e) {
            err.println("leasehold: " + e.getMessage());
            err.println(Invocation.USAGE);
            return USAGE;
        }
        if (invocation.kind() == Invocation.Kind.HELP) {
            out.println(Invocation.USAGE);
            return 0;
        }
        if (invocation.kind() == Invocation.Kind.VERSION) {
            out.println(BuildVersion.line());
            return 0;
        }
        CommandConfig config;
        try {
            config = CommandConfig.fromSystem();
        } catch (ConfigCheck.InvalidConfigException e) {
            err.println("leasehold: " + e.getMessage());
            return 1;
        }
        logToStderr("leasehold lease");
        // A store call given up as indeterminate may still fail later; nobody waits for that answer any more.
        Infrastructure.setDroppedExceptionHandler(e -> LOG.debugf("late answer ignored: %s", e));
        return invocation.kind() == Invocation.Kind.STATUS ? StatusCommand.run(config, out)
                : new ExecCommand(invocation, config).run();
    }

    /**
     * Without Quarkus nobody configures logging (records would wait in Quarkus' start-up buffer for
     * ever): log lines go to stderr, so CMD's stdout and the commands' JSON and tables stay clean.
     */
    public static void logToStderr(String tag) {
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler stderr = new ConsoleHandler(ConsoleHandler.Target.SYSTEM_ERR,
                new PatternFormatter("%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [" + tag + "] %s%e%n"));
        stderr.setLevel(Level.INFO);
        root.addHandler(stderr);
        root.setLevel(Level.INFO);
    }
}
