package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One look at a spool entry, never through a symlink: its type, its inode and how many names it has.
 * The inode number alone identifies a file here (not the device): instances on other hosts see the
 * same NFS file under their own device numbers.
 */
record FileFacts(long ino, int links, Instant modified, long size, Map<String, Object> attributes) {

    /**
     * The look of {@link #of}, but a name with nothing behind it (absent, or a symlink to nothing) is
     * answered empty at the cost of one stat(2) and no exception. For names that are usually absent
     * (records, reservations, settled names of a new item): the JDK's own look throws an exception for
     * an absent name, and its stack trace cost more than the rest of a small item's work. A dangling
     * symlink is never followed or read either way; where such a name is created, the create fails on
     * it and the careful look ({@link #of}) reports it.
     */
    static Optional<FileFacts> ofLikelyAbsent(Path path) throws IOException {
        return mayExist(path) ? of(path) : Optional.empty();
    }

    /** False when nothing is behind the name (or only a symlink to nothing): one stat(2), no exception. */
    static boolean mayExist(Path path) {
        return path.toFile().exists();
    }

    static Optional<FileFacts> of(Path path) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, "unix:ino,nlink,lastModifiedTime,size,isRegularFile,isSymbolicLink,"
                    + "isDirectory", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(new FileFacts(((Number) a.get("ino")).longValue(), ((Number) a.get("nlink")).intValue(),
                ((FileTime) a.get("lastModifiedTime")).toInstant(), ((Number) a.get("size")).longValue(), a));
    }

    boolean regular() {
        return Boolean.TRUE.equals(attributes.get("isRegularFile"));
    }

    boolean directory() {
        return Boolean.TRUE.equals(attributes.get("isDirectory"));
    }

    boolean sameFileAs(FileFacts other) {
        return regular() && other.regular() && ino == other.ino;
    }

    /** Words for what a non-regular entry is. */
    String problem() {
        return SpoolFiles.problem(attributes);
    }
}
