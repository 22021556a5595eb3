package io.leasehold.directory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Looking into a test spool's folders. */
final class SpoolTree {

    private SpoolTree() {
    }

    /** Entry names in one folder, sorted. */
    static List<String> names(SpoolLayout layout, SpoolFolder folder) {
        try (Stream<Path> entries = Files.list(layout.folder(folder))) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
