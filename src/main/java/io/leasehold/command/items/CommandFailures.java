package io.leasehold.command.items;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
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
        String message = e instanceof FileSystemException file ? file(file)
                : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** The JDK's file errors carry the path as their message and the cause apart: say both. */
    private static String file(FileSystemException e) {
        // The JDK gives its NoSuchFile/NotDirectory/... exceptions no reason: one with a reason is our own
        // refusal, whose reason is a sentence with the fix, said after the path as the service says it.
        if (e.getClass() != FileSystemException.class && e.getReason() != null && e.getOtherFile() == null) {
            return e.getFile() + ": " + e.getReason();
        }
        String cause = e instanceof NoSuchFileException ? "no such file"
                : e instanceof NotDirectoryException ? "not a directory"
                : e instanceof AccessDeniedException ? "permission denied"
                : e instanceof FileAlreadyExistsException ? "exists, and is not what was wanted there (a file, or a "
                        + "dangling symbolic link)"
                : e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
        String where = e.getFile() == null ? "" : e.getFile() + (e.getOtherFile() == null ? "" : " -> " + e.getOtherFile());
        return where.isEmpty() ? cause : cause + ": " + where;
    }
}
