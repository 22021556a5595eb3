package io.leasehold.command;

import io.leasehold.directory.SpoolEpochFloor;
import io.leasehold.lease.EpochFloor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The epoch floor as {@code lease exec} may use it: only the service's own, never one of its own
 * making, since a fresh floor of 0 beside a wiped store would let epochs go backwards. The floor is
 * {@code <leasehold.spool.dir>/lease/epoch-floor} when the key is set (by any source) and names an
 * existing directory; with the key left at its default ({@code spool}, relative) only when
 * {@code ./spool/lease} already exists, i.e. a service using the default ran here. Otherwise every
 * use fails naming the key, so the lease is not taken and nothing is created where the command runs.
 * Borrowing an epoch and unleased mode never touch the floor.
 */
final class ExecFloor implements EpochFloor {

    private final Path dir;
    private final boolean set;
    private final SpoolEpochFloor floor;

    ExecFloor(Path spoolDir, boolean set) {
        this.dir = spoolDir.toAbsolutePath().normalize();
        this.set = set;
        this.floor = new SpoolEpochFloor(dir);
    }

    @Override
    public long highest() throws IOException {
        usable();
        try {
            return floor.highest();
        } catch (IOException e) {
            throw named(e);
        }
    }

    @Override
    public void raise(long epoch) throws IOException {
        usable();
        try {
            floor.raise(epoch);
        } catch (IOException e) {
            throw named(e);
        }
    }

    private void usable() throws IOException {
        if (set && !Files.isDirectory(dir)) {
            throw new IOException("leasehold.spool.dir (" + dir + ") is not a directory: lease exec takes the lease"
                    + " only with the service's epoch floor in its spool, and makes no spool of its own");
        }
        if (!set && !Files.isDirectory(floor.file().getParent())) {
            throw new IOException("leasehold.spool.dir is not set, and there is no " + floor.file().getParent()
                    + " (the default spool's floor) here: lease exec takes the lease only where it can read and"
                    + " raise the service's epoch floor; set leasehold.spool.dir to the service's spool");
        }
    }

    private IOException named(IOException e) {
        return new IOException("leasehold.spool.dir (" + dir + "): " + e.getMessage(), e);
    }
}
