package io.leasehold.spool;

import io.leasehold.lease.EpochFloor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** The highest epoch ever issued, in {@code lease/epoch-floor} under the spool: survives any NATS wipe. */
public final class SpoolEpochFloor implements EpochFloor {

    private final Path folder;
    private final Path file;

    public SpoolEpochFloor(SpoolLayout layout) {
        this.folder = layout.root().resolve("lease");
        this.file = folder.resolve("epoch-floor");
    }

    @Override
    public long highest() throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return 0;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IOException(file + " does not hold an epoch: '" + text + "'", e);
        }
    }

    @Override
    public void raise(long epoch) throws IOException {
        if (epoch <= highest()) {
            return;
        }
        Files.createDirectories(folder);
        Path tmp = folder.resolve("epoch-floor." + ProcessHandle.current().pid() + "." + System.nanoTime());
        try {
            Files.writeString(tmp, Long.toString(epoch), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, StandardOpenOption.SYNC);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            SpoolLayout.forceDirectory(folder);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
