package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Where things live under the spool directory, and the one careful way to move them. */
public final class SpoolLayout {

    private final Path root;

    public SpoolLayout(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public Path folder(SpoolFolder folder) {
        return root.resolve(folder.dirName());
    }

    public Path file(SpoolFolder folder, String name) {
        return folder(folder).resolve(name);
    }

    public Path claimFile(ClaimName claim) {
        return file(SpoolFolder.CLAIMED, claim.fileName());
    }

    /**
     * Makes the folders that are missing, and refuses a folder that is not a directory of its own: a
     * symbolic link there would be followed by every move (a purge of done/ deleting files elsewhere, an
     * enqueue writing elsewhere), and another machine would resolve it to another place or to none, while
     * the protocol needs every instance to see the same names. The root itself may be a link.
     */
    public void createFolders() throws IOException {
        requireParent(root);
        for (SpoolFolder f : SpoolFolder.values()) {
            Path p = folder(f);
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(p);
            }
            requireOwnDirectory(p);
        }
    }

    /**
     * The spool directory may be made, its parents never: a missing parent is most often a mount that is
     * not there or a typo in its path, and making it would give this instance a spool of its own that no
     * other instance shares.
     */
    static void requireParent(Path root) throws IOException {
        Path absolute = root.toAbsolutePath();
        Path parent = absolute.getParent();
        if (parent != null && !Files.exists(absolute, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(parent)) {
            throw new NoSuchFileException(absolute.toString(), null, "its parent " + parent
                    + (Files.exists(parent) ? " is not a directory" : " does not exist")
                    + " (is a volume not mounted, or the path misspelt?); the spool directory itself is made at start,"
                    + " its parents never are");
        }
    }

    /** Refuses {@code folder} unless it is a directory itself, not a link to one (nor a file). */
    public static void requireOwnDirectory(Path folder) throws IOException {
        if (Files.isSymbolicLink(folder)) {
            throw new FileSystemException(folder.toString(), null, "a spool folder is a symbolic link (to "
                    + Files.readSymbolicLink(folder) + "); it must be a directory of its own, the same on every instance");
        }
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            throw new NotDirectoryException(folder.toString());
        }
    }

    /** True when every folder is a writable directory of its own (not a link). */
    public boolean isUsable() {
        for (SpoolFolder f : SpoolFolder.values()) {
            Path p = folder(f);
            if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) || !Files.isWritable(p)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Atomically renames {@code from} to {@code to}, a name unique to this mover (a claim name with a
     * fresh generation or reading); false when {@code from} was not there. Moves into names every holder
     * of an id shares (pending/, done/, failed/) are link then unlink instead ({@link SharedNames}):
     * rename(2) would replace a file there.
     *
     * <p>A network filesystem can report failure for a rename that happened (the reply was lost and the
     * retransmission found the source gone), so after any error both names are looked at before deciding:
     * the target name is unique to its mover, so finding it means the move was ours.
     */
    public static boolean moveToUniqueName(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (AtomicMoveNotSupportedException e) {
            throw e;
        } catch (IOException e) {
            boolean fromThere = Files.exists(from, LinkOption.NOFOLLOW_LINKS);
            boolean toThere = Files.exists(to, LinkOption.NOFOLLOW_LINKS);
            if (!fromThere && toThere) {
                return true;
            }
            if (!fromThere && e instanceof NoSuchFileException) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The entries of {@code folder} whose names begin with {@code prefix}, taken literally. A filter rather
     * than a glob: a glob compiles a regular expression on every call, and claims are looked up per item.
     */
    public static DirectoryStream<Path> startingWith(Path folder, String prefix) throws IOException {
        return Files.newDirectoryStream(folder, entry -> entry.getFileName().toString().startsWith(prefix));
    }

    /** Forces a directory's entries to disk, so a rename or link into it survives a crash. */
    public static void forceDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
