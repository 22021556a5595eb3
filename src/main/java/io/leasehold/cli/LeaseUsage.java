package io.leasehold.cli;

import picocli.CommandLine.Command;

/**
 * {@code lease ...} as the overall usage lists it. The words after {@code lease} go to {@link
 * io.leasehold.command.LeaseCommand}'s own parser before picocli sees them, so this is never run.
 */
@Command(name = "lease", description = {"The controller lease: lease status (who holds it, JSON), lease exec "
        + "[--shell] -- CMD [ARGS...] (CMD under the holder's epoch, LEASEHOLD_EPOCH).",
    "lease --help tells more."})
public final class LeaseUsage implements Runnable {

    @Override
    public void run() {
        throw new IllegalStateException("lease ... is run by LeaseCommand, never through picocli");
    }
}
