package io.leasehold.directory;

import io.leasehold.lease.EpochFloor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The highest epoch ever issued, in {@code lease/epoch-floor} under the spool root: one decimal number.
 * It lives with the spool because the spool outlives the bus's data. Written through a temp file in
 * the same folder, renamed over the old one and the folder forced, so a crash leaves the old or the new
 * number, never a torn one. Raising holds a lock on {@code lease/epoch-floor.lock}, so instances
 * sharing the spool cannot lower each other's floor by racing read-then-write.
 */
public final class SpoolEpochFloor implements EpochFloor {

    /** FileLock is held per JVM, not per thread: instances in one JVM take turns here first. */
    private static final Object IN_THIS_JVM = new Object();
    private static final long MAX_BYTES = 64;

    private final Path folder;
    private final Path file;
    private final Path lockFile;

    public SpoolEpochFloor(Path spoolRoot) {
        this.folder = spoolRoot.toAbsolutePath().normalize().resolve("lease");
        this.file = folder.resolve("epoch-floor");
        this.lockFile = folder.resolve("epoch-floor.lock");
    }

    public Path file() {
        return file;
    }

    @Override
    public long highest() throws IOException {
        String text;
        try {
            // Bookkeeping read like every spool file: never through a symlink, never a FIFO (which would
            // block the lease), never more than a bound.
            text = new String(SpoolFiles.readBounded(file, MAX_BYTES), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new IOException("the epoch floor " + file + " cannot be read: " + e.getMessage(), e);
        }
        String trimmed = text.trim();
        try {
            long epoch = Long.parseLong(trimmed);
            if (epoch >= 0) {
                return epoch;
            }
        } catch (NumberFormatException e) {
            // Reported below with the content.
        }
        String shown = trimmed.length() > 40 ? trimmed.substring(0, 40) + "..." : trimmed;
        throw new IOException("the epoch floor " + file + " holds '" + shown + "', not an epoch: epochs could go "
                + "backwards, so nothing is taken until it is fixed (write the highest epoch issued, or remove "
                + "the file if the bus still has its data)");
    }

    @Override
    public void raise(long epoch) throws IOException {
        if (epoch < 0) {
            throw new IllegalArgumentException("an epoch is never negative: " + epoch);
        }
        synchronized (IN_THIS_JVM) {
            raiseLocked(epoch);
        }
    }

    private void raiseLocked(long epoch) throws IOException {
        Files.createDirectories(folder);
        try (FileChannel lock = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = lock.lock()) {
            if (epoch <= highest()) {
                return;
            }
            Path tmp = folder.resolve("epoch-floor.tmp-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
            try {
                try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    out.write(java.nio.ByteBuffer.wrap((epoch + "\n").getBytes(StandardCharsets.US_ASCII)));
                    out.force(true);
                }
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
            SpoolLayout.forceDirectory(folder);
        }
    }
}
