package io.leasehold.command;

/** The command line does not say what to do; exit status 2 with the usage. */
public final class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
