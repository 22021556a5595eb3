package io.leasehold.directory;

import io.leasehold.core.Generation;
import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Small records of the fleet's (schedules' marks, pauses, attempts' outputs) replaced whole: a crash leaves the old file or the new one. */
final class WrittenWhole {

    /** A record is a few lines: a larger file there is not one of ours, and is never read whole. */
    private static final long MAX_BYTES = 4096;

    private WrittenWhole() {
    }

    /** Written in tmp/ and forced, renamed over {@code name} in {@code folder}, the folder forced. */
    static void replace(SpoolLayout layout, SpoolFolder folder, String name, String text) throws IOException {
        Path dir = layout.folder(folder);
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir); // a spool made by an older version has no such folder yet
        }
        SpoolLayout.requireOwnDirectory(dir);
        Path tmp = layout.file(SpoolFolder.TMP, folder.dirName() + "~" + name + "~" + Generation.first().nonce());
        try {
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                out.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
                out.force(true);
            }
            Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        SpoolLayout.forceDirectory(dir);
    }

    /**
     * The record's text, read without following a link and refused past a few KiB. A record replaced by another
     * instance while it was being opened (each write renames a new file over it) is read again, at most twice
     * more; what is still no record then (a FIFO, a link, a large file) is refused.
     */
    static String read(Path file) throws IOException {
        return new String(read(file, MAX_BYTES, file.getFileName().toString()), StandardCharsets.UTF_8);
    }

    /** As {@link #read(Path)}, for a file of up to {@code maxBytes} named {@code what} in the messages. */
    static byte[] read(Path file, long maxBytes, String what) throws IOException {
        for (int look = 1; ; look++) {
            try {
                return SpoolFiles.readBounded(file, maxBytes, what);
            } catch (UnfitFileException e) {
                if (look == 3) {
                    throw e;
                }
            }
        }
    }
}
