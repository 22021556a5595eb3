package io.leasehold.directory;

import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Objects;

/**
 * The one way a file is read from the spool (payloads and bookkeeping): never through a symlink,
 * only a regular file with a single name, and never more than a bound.
 *
 * <p>The type is checked on the name before opening, because opening a FIFO for reading blocks until
 * a writer comes; the file key is compared after opening, so a file swapped in between is refused too.
 */
public final class SpoolFiles {

    private SpoolFiles() {
    }

    /** The content of {@code file}, at most {@code maxBytes}; {@link java.nio.file.NoSuchFileException} when gone. */
    public static byte[] readBounded(Path file, long maxBytes) throws IOException {
        return readBounded(file, maxBytes, file.getFileName().toString());
    }

    /** As {@link #readBounded(Path, long)}, naming the file {@code what} in the messages (e.g. "the payload of x"). */
    public static byte[] readBounded(Path file, long maxBytes, String what) throws IOException {
        Map<String, Object> before = fitAttributes(file, maxBytes, what);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            Map<String, Object> after = fitAttributes(file, maxBytes, what);
            if (!Objects.equals(before.get("fileKey"), after.get("fileKey"))) {
                throw new UnfitFileException(UnfitFileException.Kind.JUNK, what + " was replaced while it was being opened");
            }
            // Read one byte past the bound: a file that grew after the look is refused, not cut short.
            InputStream in = Channels.newInputStream(channel);
            byte[] content = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (content.length > maxBytes) {
                throw oversized(what, content.length, maxBytes, true);
            }
            return content;
        }
    }

    /**
     * Checks that {@code file} may be read (see the class doc) and answers its unix attributes; throws
     * {@link UnfitFileException} when not, {@link java.nio.file.NoSuchFileException} when gone.
     */
    public static Map<String, Object> fitAttributes(Path file, long maxBytes) throws IOException {
        return fitAttributes(file, maxBytes, file.getFileName().toString());
    }

    private static Map<String, Object> fitAttributes(Path file, long maxBytes, String what) throws IOException {
        Map<String, Object> a = Files.readAttributes(file, "unix:fileKey,isRegularFile,isSymbolicLink,isDirectory,"
                + "size,nlink", LinkOption.NOFOLLOW_LINKS);
        if (!Boolean.TRUE.equals(a.get("isRegularFile"))) {
            throw new UnfitFileException(UnfitFileException.Kind.JUNK, what + " is " + problem(a));
        }
        int links = ((Number) a.get("nlink")).intValue();
        if (links != 1) {
            throw new UnfitFileException(UnfitFileException.Kind.JUNK, what + " has " + links
                    + " names (a hard link to a file elsewhere is never read)");
        }
        long size = ((Number) a.get("size")).longValue();
        if (size > maxBytes) {
            throw oversized(what, size, maxBytes, false);
        }
        return a;
    }

    private static UnfitFileException oversized(String what, long size, long maxBytes, boolean atLeast) {
        return new UnfitFileException(UnfitFileException.Kind.OVERSIZED, what + " is "
                + (atLeast ? "over " + maxBytes : Long.toString(size)) + " bytes, more than the limit of " + maxBytes
                + " bytes (leasehold.item.max-bytes)");
    }

    /**
     * Removes the name; false when it was not there. One unlink(2) where it is there (the JDK's own
     * delete looks at the name first); the careful delete only when that failed, to tell an absent
     * name from an error.
     */
    static boolean unlink(Path file) throws IOException {
        return file.toFile().delete() || Files.deleteIfExists(file);
    }

    /** Words for what a non-regular entry is. */
    static String problem(Map<String, Object> a) {
        if (Boolean.TRUE.equals(a.get("isSymbolicLink"))) {
            return "a symbolic link (never followed)";
        }
        if (Boolean.TRUE.equals(a.get("isDirectory"))) {
            return "a directory where a file belongs";
        }
        return "not a regular file (a FIFO, socket or device)";
    }

    /** The same words from basic attributes, for listings that already have them. */
    static String problem(BasicFileAttributes a) {
        if (a.isSymbolicLink()) {
            return "a symbolic link (never followed)";
        }
        if (a.isDirectory()) {
            return "a directory where a file belongs";
        }
        return "not a regular file (a FIFO, socket or device)";
    }
}
