package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
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

    public void createFolders() throws IOException {
        for (SpoolFolder f : SpoolFolder.values()) {
            Files.createDirectories(folder(f));
        }
    }

    /** True when every folder is a writable directory. */
    public boolean isUsable() {
        for (SpoolFolder f : SpoolFolder.values()) {
            Path p = folder(f);
            if (!Files.isDirectory(p) || !Files.isWritable(p)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Atomically renames {@code from} to {@code to}; false when {@code from} was not there.
     *
     * <p>A network filesystem can report failure for a rename that happened (the reply was lost and
     * the retransmission found the source gone), so after any error both names are looked at before
     * deciding. A claim name (a fresh generation or reading) is unique to its mover, so finding it
     * means the move was ours; done/, failed/ and pending/ names are shared by every holder of the id,
     * so there a vanished source means someone else moved it.
     */
    public static boolean moveToUniqueName(Path from, Path to) throws IOException {
        return move(from, to, true);
    }

    /** As {@link #moveToUniqueName}, for a target any holder of the id could have moved to. */
    public static boolean moveToSharedName(Path from, Path to) throws IOException {
        return move(from, to, false);
    }

    private static boolean move(Path from, Path to, boolean targetUniqueToMover) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (AtomicMoveNotSupportedException e) {
            throw e;
        } catch (IOException e) {
            boolean fromThere = Files.exists(from, LinkOption.NOFOLLOW_LINKS);
            boolean toThere = Files.exists(to, LinkOption.NOFOLLOW_LINKS);
            if (!fromThere && toThere && targetUniqueToMover) {
                return true;
            }
            if (!fromThere && (e instanceof NoSuchFileException || toThere)) {
                return false;
            }
            throw e;
        }
    }

    /** Forces a directory's entries to disk, so a rename or link into it survives a crash. */
    public static void forceDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
