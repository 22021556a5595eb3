package io.leasehold.directory;

import io.leasehold.core.ItemId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Whether every item in done/ and failed/ has its reservation in ids/, as every item settled by a build with
 * reservations has (a purge removes the settled file before the reservation). Then an id with no reservation
 * has no settled item either, and the drain's first claim of a dropped-in file need not look in done/ and
 * failed/, the spool's largest folders, for a file of an older spool (docs/protocol.md, "Known ids").
 *
 * <p>Said by the marker {@code .settled-reserved} in the spool directory: written when the spool is opened with done/ and failed/ empty, or once a check of every
 * settled item found its reservation. Without it, each first claim looks, as spools always did.
 */
final class SettledReserved {

    static final String MARKER = ".settled-reserved";

    private final SpoolLayout layout;
    private volatile boolean known;

    SettledReserved(SpoolLayout layout) {
        this.layout = layout;
        this.known = Files.exists(marker(), LinkOption.NOFOLLOW_LINKS);
        if (!known) {
            try {
                if (empty(SpoolFolder.DONE) && empty(SpoolFolder.FAILED)) {
                    mark();
                }
            } catch (IOException | RuntimeException e) {
                // unknown: first claims look in done/ and failed/, as before
            }
        }
    }

    /** True when every settled item is known to have its reservation. */
    boolean all() {
        return known;
    }

    /**
     * Checks each item in done/ and failed/ for its reservation, once, and marks the spool when all have one
     * (housekeeping's: a stat per settled item). Answers whether they all do.
     */
    boolean check() throws IOException {
        if (known) {
            return true;
        }
        for (SpoolFolder settled : new SpoolFolder[] {SpoolFolder.DONE, SpoolFolder.FAILED}) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(settled))) {
                for (Path entry : entries) {
                    String id = entry.getFileName().toString();
                    if (ItemId.isValid(id) && FileFacts.of(layout.file(SpoolFolder.IDS, id)).isEmpty()) { // never followed
                        return false; // settled by a build older than reservations: first claims keep looking
                    }
                }
            }
        }
        mark();
        return true;
    }

    /** Known from here on, for this instance at least: a marker that cannot be written only spares the others nothing. */
    private void mark() {
        known = true;
        try {
            Files.createFile(marker());
        } catch (FileAlreadyExistsException e) {
            // marked by another instance
        } catch (IOException | UnsupportedOperationException e) {
            // a spool directory this instance may not write in: its own look says so until it restarts
        }
    }

    /**
     * A settled item without its reservation was met (a build older than reservations shares the spool, or
     * files were put into done/ or failed/ by hand): first claims look again, until housekeeping's check.
     */
    void forget() {
        known = false;
        try {
            Files.deleteIfExists(marker());
        } catch (IOException e) {
            // this instance looks again all the same; the others once they restart or re-check
        }
    }

    private boolean empty(SpoolFolder folder) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(folder))) {
            return !entries.iterator().hasNext();
        } catch (NoSuchFileException e) {
            return true;
        }
    }

    private Path marker() {
        return layout.root().resolve(MARKER);
    }
}
