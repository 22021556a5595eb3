package io.leasehold.spool;

import io.leasehold.core.ClaimName;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.ThreadLocalRandom;

/** The API's view of a spool on a POSIX filesystem. */
public final class PosixItemStore implements ItemStore {

    private static final int LOOKS = 3;
    private static final int COPY_BUFFER = 64 * 1024;

    private final SpoolLayout layout;
    private final PosixSpool spool;
    private final LeaseTerms terms;
    private final Clock clock;

    public PosixItemStore(SpoolLayout layout, PosixSpool spool, LeaseTerms terms, Clock clock) {
        this.layout = layout;
        this.spool = spool;
        this.terms = terms;
        this.clock = clock;
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
        ItemId.require(id);
        // An item moving between folders can be missed by one round of looks; look again.
        for (int look = 0; look < LOOKS; look++) {
            Optional<ItemView> found = lookOnce(id);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private Optional<ItemView> lookOnce(String id) throws IOException {
        Optional<BasicFileAttributes> pending = regularFile(layout.file(SpoolFolder.PENDING, id));
        if (pending.isPresent()) {
            return Optional.of(plain(id, ItemState.PENDING, pending.get()));
        }
        try (DirectoryStream<Path> entries =
                Files.newDirectoryStream(layout.folder(SpoolFolder.CLAIMED), id + ClaimName.SEPARATOR + "*")) {
            for (Path entry : entries) {
                Optional<ClaimName> claim = ClaimName.parse(entry.getFileName().toString());
                if (claim.isPresent() && claim.get().id().equals(id)) {
                    return Optional.of(claimed(claim.get()));
                }
            }
        }
        for (ItemState settled : new ItemState[] {ItemState.DONE, ItemState.FAILED}) {
            Optional<BasicFileAttributes> file = regularFile(layout.file(settled.folder(), id));
            if (file.isPresent()) {
                return Optional.of(plain(id, settled, file.get()));
            }
        }
        return Optional.empty();
    }

    private ItemView claimed(ClaimName claim) {
        return new ItemView(claim.id(), ItemState.CLAIMED.label(), claim.generation().attempt(),
                claim.generation().toString(), terms.expiresAt(claim), null, claim.reading());
    }

    private ItemView plain(String id, ItemState state, BasicFileAttributes attributes) throws IOException {
        String reason = null;
        if (state == ItemState.FAILED) {
            reason = spool.reason(id).map(Spool.Reason::text).orElse("unknown (no reason was recorded)");
        }
        return new ItemView(id, state.label(), null, null, null, reason, attributes.lastModifiedTime().toInstant());
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
    public List<ItemView> list(ItemState state, int limit) throws IOException {
        Comparator<ItemView> oldestFirst = Comparator.comparing(ItemView::since).thenComparing(ItemView::id);
        // A heap of the `limit` oldest seen so far keeps memory bounded in a folder of any size.
        PriorityQueue<ItemView> oldest = new PriorityQueue<>(oldestFirst.reversed());
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(state.folder()))) {
            for (Path entry : entries) {
                Optional<ItemView> view = viewOf(state, entry);
                if (view.isEmpty()) {
                    continue;
                }
                oldest.add(view.get());
                if (oldest.size() > limit) {
                    oldest.poll();
                }
            }
        }
        List<ItemView> out = new ArrayList<>(oldest);
        out.sort(oldestFirst);
        return out;
    }

    private Optional<ItemView> viewOf(ItemState state, Path entry) throws IOException {
        String name = entry.getFileName().toString();
        if (state == ItemState.CLAIMED) {
            return ClaimName.parse(name).map(this::claimed);
        }
        if (!ItemId.isValid(name)) {
            return Optional.empty();
        }
        Optional<BasicFileAttributes> file = regularFile(entry);
        return file.isEmpty() ? Optional.empty() : Optional.of(plain(name, state, file.get()));
    }

    @Override
    public SpoolCounts counts() throws IOException {
        Instant now = clock.now();
        long pending = 0;
        Instant oldest = null;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.PENDING))) {
            for (Path entry : entries) {
                if (!ItemId.isValid(entry.getFileName().toString())) {
                    continue;
                }
                Optional<BasicFileAttributes> file = regularFile(entry);
                if (file.isPresent()) {
                    pending++;
                    Instant written = file.get().lastModifiedTime().toInstant();
                    if (oldest == null || written.isBefore(oldest)) {
                        oldest = written;
                    }
                }
            }
        }
        long claimed = count(SpoolFolder.CLAIMED, true);
        long done = count(SpoolFolder.DONE, false);
        long failed = count(SpoolFolder.FAILED, false);
        long ageMs = oldest == null ? 0 : Math.max(0, now.toEpochMilli() - oldest.toEpochMilli());
        return new SpoolCounts(pending, claimed, done, failed, ageMs);
    }

    private long count(SpoolFolder folder, boolean claims) throws IOException {
        long n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(folder))) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (claims ? ClaimName.parse(name).isPresent() : ItemId.isValid(name)) {
                    n++;
                }
            }
        }
        return n;
    }

    @Override
    public ItemView cancel(String id) throws IOException {
        requireState(id, ItemState.PENDING);
        spool.writeReason(id, new Spool.Reason("-", 0, "cancelled"));
        if (!SpoolLayout.moveToSharedName(layout.file(SpoolFolder.PENDING, id), layout.file(SpoolFolder.FAILED, id))) {
            // Claimed between the look and the move: it is no longer pending.
            spool.deleteReason(id);
            requireState(id, ItemState.PENDING);
        }
        return lookup(id).orElseThrow(() -> new NoSuchItemException(id));
    }

    @Override
    public ItemView retry(String id) throws IOException {
        requireState(id, ItemState.FAILED);
        Path target = layout.file(SpoolFolder.PENDING, id);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new DuplicateItemException(id);
        }
        if (!SpoolLayout.moveToSharedName(layout.file(SpoolFolder.FAILED, id), target)) {
            requireState(id, ItemState.FAILED);
        }
        spool.deleteReason(id);
        return lookup(id).orElseThrow(() -> new NoSuchItemException(id));
    }

    private void requireState(String id, ItemState needed) throws IOException {
        ItemView view = lookup(id).orElseThrow(() -> new NoSuchItemException(id));
        if (!view.state().equals(needed.label())) {
            throw new WrongStateException(id, view.state(), needed.label());
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
