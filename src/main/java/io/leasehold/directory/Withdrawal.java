package io.leasehold.directory;

import io.leasehold.spool.ItemStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Takes an item that was linked into pending/ back out, when the sync that would have made it durable
 * failed. pending/{@code <id>} is renamed to a name unique to the withdrawer (a rename out of a shared
 * name never replaces anything); if the file it took is not the item's own (another program dropped one
 * in under the id meanwhile) it is linked back. Gone already means a drain claimed it first: it stays.
 */
final class Withdrawal {

    static final String PREFIX = "withdrawn~";

    private Withdrawal() {
    }

    /** True when the file with inode {@code ino} is no longer in pending/ under {@code id}, taken out here. */
    static boolean withdraw(SpoolLayout layout, String id, long ino) throws IOException {
        Path pending = layout.file(SpoolFolder.PENDING, id);
        Path away = layout.file(SpoolFolder.TMP, PREFIX + id + "~"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36));
        if (!SpoolLayout.moveToUniqueName(pending, away)) {
            return false;
        }
        Optional<FileFacts> taken = FileFacts.of(away);
        if (taken.isPresent() && taken.get().ino() != ino) {
            SharedNames.link(away, pending); // not ours: back where it was
            Files.deleteIfExists(away);
            return false;
        }
        Files.deleteIfExists(away);
        return true;
    }

    /** The error of an enqueue whose sync failed but whose item was claimed before it could be withdrawn. */
    static IOException keptAnyway(String id, IOException syncFailure) {
        return new ItemStore.EnqueuedAnywayException("item '" + id + "' stays enqueued after all: a drain claimed it"
                + " before its failed sync (" + syncFailure.getMessage() + ") could be undone; GET /items/" + id
                + " shows it; do not send it again", syncFailure);
    }
}
