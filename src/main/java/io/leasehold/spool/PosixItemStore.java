package io.leasehold.spool;

import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Reading;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/** The API's view of a spool on a POSIX filesystem. */
public final class PosixItemStore implements ItemStore {

    private final SpoolLayout layout;
    private final Clock clock;
    private final ItemQueries queries;
    private final ItemMoves moves;
    private final Enqueue enqueue;

    public PosixItemStore(SpoolLayout layout, PosixSpool spool, LeaseTerms terms, Clock clock) {
        this.layout = layout;
        this.clock = clock;
        this.queries = new ItemQueries(layout, spool.records(), terms, clock);
        this.moves = new ItemMoves(layout, spool, queries, clock);
        this.enqueue = new Enqueue(layout, queries, spool.reservations(), clock);
    }

    @Override
    public ItemView enqueue(String id, InputStream payload, long maxBytes) throws IOException {
        return enqueue.enqueue(id, payload, maxBytes);
    }

    /** Told of each item that just became claimable through this store (an enqueue, a retry). */
    public void whenArrived(Consumer<String> arrivals) {
        enqueue.whenArrived(arrivals);
        moves.whenArrived(arrivals);
    }

    @Override
    public Optional<ItemView> lookup(String id) throws IOException {
        return queries.lookup(id);
    }

    @Override
    public List<ItemView> list(ItemState state, int limit) throws IOException {
        return queries.list(state, limit);
    }

    @Override
    public SpoolCounts counts() throws IOException {
        return queries.counts();
    }

    @Override
    public ItemView cancel(String id) throws IOException {
        return moves.cancel(id);
    }

    @Override
    public ItemView retry(String id) throws IOException {
        return moves.retry(id);
    }

    @Override
    public boolean purge(String id, ItemState settled) throws IOException {
        return moves.purge(ItemId.require(id), settled);
    }

    private static Optional<BasicFileAttributes> regularFile(Path path) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isRegularFile() ? Optional.of(a) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public int cleanTmp(Instant cutoff) throws IOException {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.TMP))) {
            for (Path entry : entries) {
                Optional<BasicFileAttributes> file = regularFile(entry);
                if (file.isPresent() && file.get().lastModifiedTime().toInstant().isBefore(cutoff)
                        && Files.deleteIfExists(entry)) {
                    removed++;
                }
            }
        }
        return removed;
    }

    /** A fresh id for an item posted without one: time-ordered, so listings read naturally. */
    public String newId() {
        return Reading.format(clock.now()).replace(".", "") + "-"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong() >>> 16, 36);
    }
}
