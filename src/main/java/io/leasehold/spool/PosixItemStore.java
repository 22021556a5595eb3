package io.leasehold.spool;

import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Reading;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** The API's view of a spool on a POSIX filesystem. */
public final class PosixItemStore implements ItemStore {

    private static final int COPY_BUFFER = 64 * 1024;

    private final SpoolLayout layout;
    private final Clock clock;
    private final ItemQueries queries;
    private final ItemMoves moves;

    public PosixItemStore(SpoolLayout layout, PosixSpool spool, LeaseTerms terms, Clock clock) {
        this.layout = layout;
        this.clock = clock;
        this.queries = new ItemQueries(layout, spool.records(), terms, clock);
        this.moves = new ItemMoves(layout, spool, queries, clock);
    }

    @Override
    public ItemView enqueue(String id, InputStream payload, long maxBytes) throws IOException {
        ItemId.require(id);
        if (lookup(id).isPresent()) {
            throw new DuplicateItemException(id);
        }
        Path tmp = layout.file(SpoolFolder.TMP,
                "enqueue-" + id + "-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36));
        try {
            writeDurably(tmp, payload, maxBytes);
            Path target = layout.file(SpoolFolder.PENDING, id);
            try {
                // link(2) fails when the target exists, so an item is never replaced.
                Files.createLink(target, tmp);
            } catch (FileAlreadyExistsException e) {
                throw new DuplicateItemException(id);
            } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
                moveWithoutLink(tmp, target, id); // a filesystem without hard links (EPERM, ENOTSUP)
            }
            SpoolLayout.forceDirectory(layout.folder(SpoolFolder.PENDING));
        } finally {
            Files.deleteIfExists(tmp);
        }
        return new ItemView(id, ItemState.PENDING.label(), null, null, null, null, clock.now());
    }

    /** For filesystems without hard links: a look then a rename, with a window a link would not have. */
    private static void moveWithoutLink(Path tmp, Path target, String id) throws IOException {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new DuplicateItemException(id);
        }
        SpoolLayout.moveToSharedName(tmp, target);
    }

    private static void writeDurably(Path tmp, InputStream payload, long maxBytes) throws IOException {
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                OutputStream out = Channels.newOutputStream(channel)) {
            byte[] buffer = new byte[COPY_BUFFER];
            long written = 0;
            int n;
            while ((n = payload.read(buffer)) >= 0) {
                written += n;
                if (written > maxBytes) {
                    throw new PayloadTooLargeException(maxBytes);
                }
                out.write(buffer, 0, n);
            }
            out.flush();
            channel.force(true);
        }
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
