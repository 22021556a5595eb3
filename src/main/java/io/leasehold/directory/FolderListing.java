package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.ItemId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The one way the spool's items are counted, for a full count ({@link ItemQueries#counts()}) and for the
 * census's recounts ({@link SpoolRecount}) alike. Names alone say what is an item in claimed/, done/ and
 * failed/; in pending/ a stat of every entry tells regular files from junk and gives the write times
 * the oldest-pending age needs, so that look is the costly one and is taken less often.
 */
final class FolderListing {

    /** Bounds memory when someone drops a flood of junk under valid names; past it, a count by names counts them. */
    static final int MAX_NOT_FILES = 1000;

    /** A pending item and when its file was last written, the time its age counts from. */
    record Dated(String id, long writtenMillis) {
        static final Comparator<Dated> OLDEST_FIRST =
                Comparator.comparingLong(Dated::writtenMillis).thenComparing(Dated::id);
    }

    /**
     * One stat-ing look at pending/: the regular files under valid ids, the {@code keep} oldest of them
     * (oldest first), the valid names that are not regular files, and whether {@code oldest} is all of them.
     */
    record PendingLook(long count, List<Dated> oldest, Set<String> notFiles) {
        boolean complete() {
            return oldest.size() == count;
        }
    }

    private final SpoolLayout layout;

    FolderListing(SpoolLayout layout) {
        this.layout = layout;
    }

    /** The items of claimed/, done/ or failed/, by their names alone: a readdir, no stat. */
    long items(SpoolFolder folder) throws IOException {
        if (folder == SpoolFolder.PENDING) {
            throw new IllegalArgumentException("pending/ is counted by pendingNames or pending");
        }
        if (folder == SpoolFolder.CLAIMED) {
            return claims().size();
        }
        long n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(folder))) {
            for (Path entry : entries) {
                if (ItemId.isValid(entry.getFileName().toString())) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The claims of claimed/, by their names alone: a readdir, no stat. */
    List<ClaimName> claims() throws IOException {
        List<ClaimName> claims = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.CLAIMED))) {
            for (Path entry : entries) {
                ClaimName.parse(entry.getFileName().toString()).ifPresent(claims::add);
            }
        }
        return claims;
    }

    /** pending/ by names alone: the valid ids, less {@code notFiles} (what the last stat-ing look found junk). */
    long pendingNames(Set<String> notFiles) throws IOException {
        long n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.PENDING))) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (ItemId.isValid(name) && !notFiles.contains(name)) {
                    n++;
                }
            }
        }
        return n;
    }

    /** pending/ with a stat of every valid name; a heap of the {@code keep} oldest keeps memory bounded. */
    PendingLook pending(int keep) throws IOException {
        PriorityQueue<Dated> oldest = new PriorityQueue<>(Dated.OLDEST_FIRST.reversed());
        Set<String> notFiles = new HashSet<>();
        long count = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.PENDING))) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!ItemId.isValid(name)) {
                    continue;
                }
                BasicFileAttributes file;
                try {
                    file = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException e) {
                    continue; // claimed since the readdir
                }
                if (!file.isRegularFile()) {
                    if (notFiles.size() < MAX_NOT_FILES) {
                        notFiles.add(name);
                    }
                    continue;
                }
                count++;
                oldest.add(new Dated(name, file.lastModifiedTime().toMillis()));
                if (oldest.size() > keep) {
                    oldest.poll();
                }
            }
        }
        List<Dated> sorted = new ArrayList<>(oldest);
        sorted.sort(Dated.OLDEST_FIRST);
        return new PendingLook(count, List.copyOf(sorted), Set.copyOf(notFiles));
    }
}
