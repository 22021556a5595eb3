package io.leasehold.command;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code lease ...} on the command line asks for: {@code status}, {@code help}, or {@code exec}
 * of a command given as its own words (or, with {@code --shell}, as one line for {@code /bin/sh -c}).
 */
public record Invocation(Kind kind, boolean shell, List<String> command) {

    public enum Kind { STATUS, EXEC, HELP, VERSION }

    static final String USAGE = """
            usage: java -jar quarkus-run.jar lease status
                   java -jar quarkus-run.jar lease exec [--shell] -- CMD [ARGS...]
                   java -jar quarkus-run.jar lease [status|exec] --help|--version
              status  prints who holds the controller lease (JSON), or that nobody does, or no-bus
              exec    runs CMD with LEASEHOLD_EPOCH set; takes the lease for the run when nobody holds it
              --shell runs the words after -- as one line with /bin/sh -c (without it, no shell)
            configuration: the service's own (application.properties, also in ./config, profiles, env such
            as LEASEHOLD_NATS_URL / NATS_URL, -Dleasehold.nats.url=...): leasehold.nats.*, leasehold.lease.*
            and leasehold.spool.dir, where exec keeps the epoch floor when it takes the lease""";

    public Invocation {
        command = List.copyOf(command);
    }

    /** Parses the words after {@code lease}. */
    public static Invocation parse(List<String> words) throws UsageException {
        if (words.isEmpty()) {
            throw new UsageException("lease needs a subcommand: status or exec");
        }
        String sub = words.get(0);
        List<String> rest = words.subList(1, words.size());
        switch (sub) {
            case "status":
                if (rest.size() == 1 && asks(rest.get(0)) != null) {
                    return new Invocation(asks(rest.get(0)), false, List.of());
                }
                if (!rest.isEmpty()) {
                    throw new UsageException("lease status takes no arguments, got " + rest);
                }
                return new Invocation(Kind.STATUS, false, List.of());
            case "exec":
                return exec(rest);
            case "help", "-h", "--help":
                return new Invocation(Kind.HELP, false, List.of());
            case "-V", "--version":
                return new Invocation(Kind.VERSION, false, List.of());
            default:
                throw new UsageException("unknown lease subcommand '" + sub + "' (status or exec)");
        }
    }

    private static Invocation exec(List<String> words) throws UsageException {
        boolean shell = false;
        int i = 0;
        for (; i < words.size(); i++) {
            String word = words.get(i);
            if (word.equals("--")) {
                i++;
                break;
            }
            if (word.equals("--shell")) {
                shell = true;
            } else if (asks(word) != null) {
                return new Invocation(asks(word), false, List.of());
            } else if (word.startsWith("-")) {
                throw new UsageException("unknown lease exec option '" + word + "' (only --shell; end options with --)");
            } else {
                break; // the command itself, given without --
            }
        }
        List<String> command = words.subList(i, words.size());
        if (command.isEmpty()) {
            throw new UsageException("lease exec needs a command after --");
        }
        return new Invocation(Kind.EXEC, shell, command);
    }

    /** HELP or VERSION for {@code --help} or {@code --version} (as every command takes them), else null. */
    private static Kind asks(String word) {
        return switch (word) {
            case "-h", "--help" -> Kind.HELP;
            case "-V", "--version" -> Kind.VERSION;
            default -> null;
        };
    }

    /** The argument vector to start: the words themselves, or {@code /bin/sh -c "<words joined>"}. */
    public List<String> argv() {
        if (!shell) {
            return command;
        }
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c"));
        argv.add(String.join(" ", command));
        return argv;
    }
}
