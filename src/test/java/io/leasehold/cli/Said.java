package io.leasehold.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What one in-process run of the command line said: its exit status, stdout and stderr. */
record Said(int status, String out, String err) {

    /** Runs {@code args} with {@code stdin} as standard input, a terminal or not. */
    static Said run(String stdin, boolean terminal, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = OperatorCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), terminal);
        return new Said(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code args} with nothing on standard input. */
    static Said run(String... args) {
        return run("", false, args);
    }
}
