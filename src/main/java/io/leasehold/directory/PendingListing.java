package io.leasehold.directory;

import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The next ids in pending/ a claim may try: valid names of plain files, junk reported and passed over. */
final class PendingListing {

    private PendingListing() {
    }

    static List<String> batch(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, int max) throws IOException {
        List<String> ids = new ArrayList<>(Math.min(max, 1024));
        // Reads only as far as it needs: a huge pending/ costs one short readdir, not a full listing.
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.PENDING))) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!ItemId.isValid(name)) {
                    anomalies.report(SpoolFolder.PENDING, name, "not a valid item id", clock.now());
                    continue;
                }
                // Junk under a valid name (a directory, a symlink) never enters a batch, however much
                // of it there is, so it cannot crowd real items out; once replaced by a file it drains.
                Optional<BasicFileAttributes> attributes = attributesOf(entry);
                if (attributes.isEmpty()) {
                    continue;
                }
                if (!attributes.get().isRegularFile()) {
                    anomalies.report(SpoolFolder.PENDING, name, SpoolFiles.problem(attributes.get()), clock.now());
                    continue;
                }
                if (anomalies.isKnown(SpoolFolder.PENDING, name)) {
                    continue; // junk a claim refused (see forgetFixedJunk)
                }
                ids.add(name);
                if (ids.size() >= max) {
                    break;
                }
            }
        }
        return ids;
    }

    private static Optional<BasicFileAttributes> attributesOf(Path path) throws IOException {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty(); // claimed by another instance since the listing
        }
    }
}
