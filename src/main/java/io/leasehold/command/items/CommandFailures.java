package io.leasehold.command.items;

import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CompletionException;
import picocli.CommandLine;

/**
 * A command that could not be done: bad configuration (naming its key), no spool, no such item, an item in
 * the wrong state, a known id, a payload too large, a file that cannot be read. One line on stderr, no stack
 * trace, exit 1 (2 stays for usage errors).
 */
public final class CommandFailures implements CommandLine.IExecutionExceptionHandler {

    public static final int NOT_DONE = 1;

    @Override
    public int handleExecutionException(Exception e, CommandLine where, CommandLine.ParseResult parsed) {
        where.getErr().println("leasehold: " + said(e));
        where.getErr().flush();
        return NOT_DONE;
    }

    static String said(Throwable e) {
        if (e instanceof CompletionException && e.getCause() != null) {
            return said(e.getCause()); // a bulk action's failure, as its step threw it
        }
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        if (e instanceof NoSuchFileException) {
            message = "no such file: " + message;
        } else if (e instanceof AccessDeniedException) {
            message = "permission denied: " + message;
        }
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
