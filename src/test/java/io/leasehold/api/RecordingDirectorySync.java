package io.leasehold.api;

import io.leasehold.directory.DirectorySync;
import io.leasehold.directory.PosixDirectorySync;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The real fsync of a folder, recorded: for each sync of pending/, the names pending/ held just before
 * it began (so every link they show was made before it), and its begin and end on one sequence the test
 * shares ({@link #SEQUENCE}) to stamp when an answer came. Enabled by {@link BatchLimitsProfile}.
 */
@Alternative
@Singleton
public class RecordingDirectorySync implements DirectorySync {

    /** One order of events for the syncs and the test's clients. */
    static final AtomicLong SEQUENCE = new AtomicLong();

    record Sync(Set<String> linkedBefore, long began, long ended) {
    }

    private final DirectorySync real = new PosixDirectorySync();
    private final List<Sync> pendingSyncs = new CopyOnWriteArrayList<>();

    @Override
    public void force(Path directory) throws IOException {
        if (!directory.getFileName().toString().equals("pending")) {
            real.force(directory);
            return;
        }
        Set<String> linked;
        try (Stream<Path> names = Files.list(directory)) {
            linked = names.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
        long began = SEQUENCE.incrementAndGet();
        real.force(directory);
        pendingSyncs.add(new Sync(linked, began, SEQUENCE.incrementAndGet()));
    }

    List<Sync> pendingSyncs() {
        return List.copyOf(pendingSyncs);
    }

    void clear() {
        pendingSyncs.clear();
    }
}
