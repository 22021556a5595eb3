package io.leasehold.command.items;

import java.io.InputStream;

/** The command line's standard input as the root command was given it: {@code items enqueue} reads a payload from it. */
public interface StandardInput {

    InputStream stdin();

    /** Whether {@link #stdin} is a person's terminal: {@code items enqueue} then reads it only when given {@code -}. */
    boolean stdinIsTerminal();
}
