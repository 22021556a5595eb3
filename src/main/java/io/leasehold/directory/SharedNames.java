package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The first half of every move into a name that all holders of an id share ({@code pending/<id>},
 * {@code done/<id>}, {@code failed/<id>}): link(2), which fails when the name exists and so never
 * replaces a file, as rename(2) would. The mover then unlinks its own, unique name; until it does, the
 * file has both, and {@link HalfMoves} finishes the move for a mover that stopped in between.
 */
final class SharedNames {

    /** What the link did. */
    enum Link {
        /** The target is now (or already was) this very file. */
        LINKED,
        /** The source name is gone: renamed by a renewal, or taken by another instance. */
        SOURCE_GONE,
        /** The target holds another file, which stays as it is. */
        TAKEN
    }

    private SharedNames() {
    }

    static Link link(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
            return Link.LINKED;
        } catch (FileAlreadyExistsException e) {
            // Also what a link looks like whose reply was lost on a network filesystem: look at both names.
            Optional<FileFacts> from = FileFacts.of(source);
            if (from.isEmpty()) {
                return Link.SOURCE_GONE;
            }
            Optional<FileFacts> to = FileFacts.of(target);
            return to.isPresent() && to.get().sameFileAs(from.get()) ? Link.LINKED : Link.TAKEN;
        } catch (NoSuchFileException e) {
            return Link.SOURCE_GONE;
        } catch (FileSystemException | UnsupportedOperationException e) {
            throw new IOException("the filesystem of the spool refused a hard link " + target + " (" + e.getMessage()
                    + "): leasehold moves items by link and unlink, which never replace a file, and needs a "
                    + "filesystem with hard links (local POSIX filesystems and NFS have them)", e);
        }
    }
}
