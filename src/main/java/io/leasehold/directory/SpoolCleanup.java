package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.core.SeenUnchanged;
import io.leasehold.spool.Staleness;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What crashes leave behind, removed once stale: files in tmp/ (uploads, record temporaries), the
 * epoch floor's temporaries in lease/, reservations of enqueues that never finished, records of items
 * that are done or gone, outputs of items that are gone. A file an item lives in is never removed: an upload still linked into
 * pending/ loses only its tmp/ name.
 */
final class SpoolCleanup {

    private final SpoolLayout layout;
    private final Reservations reservations;
    private final AttemptRecords records;
    private final ItemQueries queries;
    private final SeenUnchanged quiet;

    SpoolCleanup(SpoolLayout layout, Reservations reservations, AttemptRecords records, ItemQueries queries,
            Clock clock) {
        this.quiet = new SeenUnchanged(clock);
        this.layout = layout;
        this.reservations = reservations;
        this.records = records;
        this.queries = queries;
    }

    /**
     * Removes files in tmp/ and temporaries in lease/ that are {@link Staleness stale}: written before the
     * cutoff and seen unchanged here for the quiet span. An upload is written to as its body streams in,
     * so a live one is never stale, even to a cleaner whose wall clock was stepped ahead; one that never
     * became an item takes its reservation with it. Releases owed by this instance's enqueues are paid first.
     */
    int cleanTmp(Staleness staleness) throws IOException {
        int removed = reservations.payOwed();
        Set<String> looked = new HashSet<>();
        for (String name : names(layout.folder(SpoolFolder.TMP))) {
            Path file = layout.file(SpoolFolder.TMP, name);
            looked.add("tmp/" + name);
            Optional<FileFacts> facts = stale(file, "tmp/" + name, staleness);
            if (facts.isPresent() && Files.deleteIfExists(file)) {
                removed++;
                Optional<String> upload = uploadId(name);
                if (upload.isPresent() && facts.get().links() == 1) {
                    reservations.releaseOfDeadMaker(upload.get(), facts.get().ino()); // it never reached pending/
                }
            }
        }
        Path lease = layout.root().resolve("lease");
        for (String name : names(lease)) {
            // Written by the epoch floor beside its file and renamed over it; a crash leaves one behind.
            looked.add("lease/" + name);
            if (name.contains(".tmp-") && stale(lease.resolve(name), "lease/" + name, staleness).isPresent()
                    && Files.deleteIfExists(lease.resolve(name))) {
                removed++;
            }
        }
        quiet.keepOnly(looked);
        return removed;
    }

    /** A regular file written before the cutoff and seen unchanged for the quiet span; junk is never removed here. */
    private Optional<FileFacts> stale(Path file, String name, Staleness staleness) throws IOException {
        Optional<FileFacts> facts = stale(file, staleness.cutoff());
        return facts.filter(f -> quiet.quietFor(name, List.of(f.ino(), f.size(), f.modified()), staleness.quiet()));
    }

    /**
     * Removes reservations older than {@code cutoff} whose item is nowhere (its enqueue crashed, or a
     * purge did half-way), records of items that are gone, those of done items but the one that keeps
     * their history, and old reasons/ files of those. An
     * item is looked for twice, in the order items move, so one moving between folders is not missed.
     */
    int sweepBookkeeping(Instant cutoff) throws IOException {
        reservations.settled().check(); // once: a spool of an older build may turn out all reserved by now
        int removed = 0;
        Set<String> uploading = new HashSet<>();
        for (String name : names(layout.folder(SpoolFolder.TMP))) {
            uploadId(name).ifPresent(uploading::add);
            if (name.startsWith(BatchFolder.PREFIX)) {
                // Staged in a batch: its reservation is the batch's, which its recovery releases or keeps.
                names(layout.file(SpoolFolder.TMP, name)).stream().filter(ItemId::isValid).forEach(uploading::add);
            }
        }
        for (String id : ids(SpoolFolder.IDS)) {
            Path file = layout.file(SpoolFolder.IDS, id);
            if (!uploading.contains(id) && staleReservation(file, cutoff) && gone(id) && gone(id)) {
                records.forget(id);
                if (Files.deleteIfExists(file)) {
                    removed++;
                }
            }
        }
        for (String id : ids(SpoolFolder.ATTEMPTS)) {
            Optional<FileFacts> folder = FileFacts.of(layout.file(SpoolFolder.ATTEMPTS, id));
            boolean old = folder.isPresent() && folder.get().modified().isBefore(cutoff);
            if (done(id)) {
                // What a settlement left besides the record that keeps the item's history.
                removed += records.forgetAllButDone(id) ? 1 : 0;
            } else if (old && !reservations.exists(id) && gone(id)) {
                records.forget(id);
                removed++;
            }
        }
        for (String id : ids(SpoolFolder.OUTPUTS)) {
            // A purge that stopped half-way, or a late holder's output kept after it.
            Optional<FileFacts> folder = FileFacts.of(layout.file(SpoolFolder.OUTPUTS, id));
            if (folder.isPresent() && folder.get().modified().isBefore(cutoff) && !reservations.exists(id) && gone(id)) {
                try {
                    new DirectoryOutputs(layout).forget(id);
                    removed++;
                } catch (IOException e) {
                    // junk there (a folder it cannot empty): left for the operator, never the end of the sweep
                }
            }
        }
        for (String id : ids(SpoolFolder.REASONS)) {
            if (done(id) || !reservations.exists(id) && gone(id)) {
                records.forget(id);
                removed++;
            }
        }
        return removed;
    }

    private boolean done(String id) throws IOException {
        return FileFacts.of(layout.file(SpoolFolder.DONE, id)).isPresent();
    }

    /** In no folder, and no enqueue of it in tmp/: settled and pending names first, the cheap looks. */
    private boolean gone(String id) throws IOException {
        for (SpoolFolder folder : new SpoolFolder[] {SpoolFolder.DONE, SpoolFolder.FAILED, SpoolFolder.PENDING}) {
            if (FileFacts.of(layout.file(folder, id)).isPresent()) {
                return false;
            }
        }
        return queries.lookOnce(id).isEmpty() && names(layout.folder(SpoolFolder.TMP)).stream()
                .noneMatch(name -> uploadId(name).filter(id::equals).isPresent());
    }

    /** A reservation (a link to its inode number, or an older build's file) made before the cutoff; junk never. */
    private static boolean staleReservation(Path file, Instant cutoff) throws IOException {
        Optional<FileFacts> facts = FileFacts.of(file);
        return facts.isPresent() && facts.get().modified().isBefore(cutoff) && (facts.get().regular()
                || Boolean.TRUE.equals(facts.get().attributes().get("isSymbolicLink")) && ReservationReader.fit(file));
    }

    /** A regular file not written since {@code cutoff}; junk (symlinks, FIFOs, folders) is never removed here. */
    private static Optional<FileFacts> stale(Path file, Instant cutoff) throws IOException {
        return FileFacts.of(file).filter(FileFacts::regular).filter(f -> f.modified().isBefore(cutoff));
    }

    /** The id of an upload file {@code enqueue~<id>~<random>}. */
    private static Optional<String> uploadId(String name) {
        if (!name.startsWith(HalfMoves.UPLOAD_PREFIX)) {
            return Optional.empty();
        }
        int end = name.indexOf(ClaimName.SEPARATOR, HalfMoves.UPLOAD_PREFIX.length());
        String id = end < 0 ? "" : name.substring(HalfMoves.UPLOAD_PREFIX.length(), end);
        return ItemId.isValid(id) ? Optional.of(id) : Optional.empty();
    }

    private Set<String> ids(SpoolFolder folder) throws IOException {
        Set<String> ids = new HashSet<>();
        for (String name : names(layout.folder(folder))) {
            if (ItemId.isValid(name)) {
                ids.add(name);
            }
        }
        return ids;
    }

    private static Set<String> names(Path folder) throws IOException {
        Set<String> names = new HashSet<>();
        if (!Files.isDirectory(folder)) {
            return names;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }
}
