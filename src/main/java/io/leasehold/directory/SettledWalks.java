package io.leasehold.directory;

import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/** Walks of done/ or failed/ for bulk retry, purge and retention: a page of settled items at a time. */
final class SettledWalks {

    private SettledWalks() {
    }

    /**
     * The folder's entries as the directory streams them (a readdir in chunks, never the whole folder in
     * memory), each valid name with a regular file behind it answered with its modification time, which a
     * settlement set to when it settled. Unordered: the directory keeps no order.
     */
    static ItemStore.SettledWalk of(SpoolLayout layout, AttemptRecords records, ItemState state, boolean reasons)
            throws IOException {
        ItemStore.requireSettled(state);
        DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.of(state)));
        Iterator<Path> names = entries.iterator();
        return new ItemStore.SettledWalk() {
            @Override
            public List<ItemStore.Settled> next(int max) throws IOException {
                List<ItemStore.Settled> out = new ArrayList<>(Math.min(max, 1024));
                try {
                    while (out.size() < max && names.hasNext()) {
                        Path entry = names.next();
                        String id = entry.getFileName().toString();
                        if (!ItemId.isValid(id)) {
                            continue;
                        }
                        Optional<BasicFileAttributes> file = ItemQueries.regularFile(entry);
                        if (file.isEmpty()) {
                            continue; // moved since the readdir, or junk (purge and retry refuse junk anyway)
                        }
                        String reason = !reasons || state != ItemState.FAILED ? null
                                : records.failedReason(id).orElse("unknown (no reason was recorded)");
                        out.add(new ItemStore.Settled(id, file.get().lastModifiedTime().toInstant(), reason));
                    }
                } catch (DirectoryIteratorException e) {
                    throw e.getCause();
                }
                return out;
            }

            @Override
            public void close() {
                try {
                    entries.close();
                } catch (IOException e) {
                    // a directory stream's close frees a descriptor; nothing is written
                }
            }
        };
    }

}
