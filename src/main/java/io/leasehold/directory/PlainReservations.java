package io.leasehold.directory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reservations in the form builds before 2026-12-07 made them, a plain file holding the inode number: written
 * with {@code leasehold.spool.reservation-links=false} (while such builds share the spool) or where the
 * filesystem refuses symbolic links, and filled in when an older maker left one empty.
 */
final class PlainReservations {

    private PlainReservations() {
    }

    /** An exclusive create, then the number; a file this call made and could not write is removed at once. */
    static void create(Path file, long ino) throws IOException {
        FileChannel created = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (created) {
            write(created, ino);
        } catch (IOException e) {
            Files.deleteIfExists(file); // created by this call and never written (a full disk): nobody else's
            throw e;
        }
    }

    /** The number into an empty reservation file, never through a link put under its name since it was read. */
    static void fill(Path file, long ino) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING,
                LinkOption.NOFOLLOW_LINKS)) {
            write(out, ino);
        }
    }

    private static void write(FileChannel channel, long ino) throws IOException {
        ByteBuffer text = ByteBuffer.wrap((ino + "\n").getBytes(StandardCharsets.US_ASCII));
        while (text.hasRemaining()) {
            channel.write(text);
        }
    }
}
