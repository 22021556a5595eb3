package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.PastAttempt;
import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code attempts/<id>/<generation>}: each claim of an item writes only its own record, so a holder
 * that lost its claim can only write a record nobody reads any more, and a cancel, retry or new
 * enqueue never touches the record of a claim that is not theirs. The claim that has the item next
 * removes the records before it. Records are read with {@link SpoolFiles#readBounded}: one that is
 * not a plain file of the spool's own is junk, reported and skipped, never served.
 *
 * <p>Spools written before these records kept one {@code reasons/<id>} per item, {@code <generation>
 * <abandoned>} then the text: it is read for the claim of that very generation (a claim parked for a
 * retry) and for the reason of a failed item that has no record, and removed with the item's records.
 */
final class AttemptRecords {

    static final long MAX_BYTES = 16 * 1024;

    /** One record, with the claim it belongs to and when it was written. */
    record Entry(Generation generation, AttemptRecord record, Instant written) {
    }

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final Clock clock;
    private final LegacyReasons legacy;

    AttemptRecords(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock) {
        this.layout = layout;
        this.anomalies = anomalies;
        this.clock = clock;
        this.legacy = new LegacyReasons(layout, this::bounded);
    }

    /** The record of this generation, or the old {@code reasons/<id>} when it was written for it. */
    Optional<AttemptRecord> read(String id, Generation generation) throws IOException {
        Optional<AttemptRecord> own = folderOf(id).isPresent() ? readFile(id, generation.toString()) : Optional.empty();
        return own.isPresent() ? own : legacy.of(id).filter(old -> old.generation().equals(generation.toString()))
                .map(old -> new AttemptRecord(AttemptRecord.Kind.RETRY, old.abandoned(), old.text()));
    }

    /**
     * What the claim's own record says it is, for counting and listing it: {@code NOTE} without one (a first
     * attempt's claim has none, which costs a look at no file) and when it cannot be read (held, maybe stuck).
     */
    AttemptRecord.Kind kindOf(ClaimName claim) {
        try {
            return !mayHave(claim.id()) ? AttemptRecord.Kind.NOTE
                    : read(claim.id(), claim.generation()).map(AttemptRecord::kind).orElse(AttemptRecord.Kind.NOTE);
        } catch (IOException | RuntimeException e) {
            return AttemptRecord.Kind.NOTE;
        }
    }

    /** False when the item surely has no record: no attempts/ folder, and no reasons/ file of an older spool. */
    boolean mayHave(String id) {
        return FileFacts.mayExist(layout.file(SpoolFolder.ATTEMPTS, id)) || legacy.mayExist(id);
    }

    /**
     * Whether the item has a folder of records, looked at carefully (a name stat(2) cannot see, such as a symlink
     * to nothing, counts as there, so an NFS hiccup never hides a record): for a claim deciding whether the item
     * has a history to carry. An old reason is no history to carry, and goes with housekeeping.
     */
    boolean exist(String id) throws IOException {
        return FileFacts.of(layout.file(SpoolFolder.ATTEMPTS, id)).isPresent();
    }

    void write(String id, Generation generation, AttemptRecord record) throws IOException {
        // Written whole in tmp/, then renamed in: a reader sees the old record or the new one, never half.
        Path tmp = layout.file(SpoolFolder.TMP, "record~" + id + "~" + generation + "~" + Generation.first().nonce());
        try {
            Files.writeString(tmp, RecordText.format(record), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            for (int tries = 1; ; tries++) {
                try {
                    Files.move(tmp, folderFor(id).resolve(generation.toString()), StandardCopyOption.ATOMIC_MOVE);
                    return;
                } catch (NoSuchFileException e) {
                    if (tries == 3 || !Files.exists(tmp)) {
                        throw e;
                    }
                    // The item's folder was removed between our look and the rename (a settlement): make it again.
                }
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Every record of the item that can be read, junk reported and left out. */
    List<Entry> list(String id) throws IOException {
        Optional<Path> folder = folderOf(id);
        if (folder.isEmpty()) {
            return List.of();
        }
        List<Entry> out = new ArrayList<>();
        for (String name : names(folder.get())) {
            Optional<Generation> generation = Generation.parse(name);
            if (generation.isEmpty()) {
                report(id + "/" + name, "not named by a claim generation <attempt>-<nonce>");
                continue;
            }
            Optional<FileFacts> facts = FileFacts.of(folder.get().resolve(name));
            Optional<AttemptRecord> record = facts.isEmpty() ? Optional.empty() : readFile(id, name);
            record.ifPresent(r -> out.add(new Entry(generation.get(), r, facts.get().modified())));
        }
        return out;
    }

    /** The latest record of this kind: the highest attempt (a takeover always counts one), then the newest. */
    Optional<Entry> latest(String id, AttemptRecord.Kind kind) throws IOException {
        return list(id).stream().filter(e -> e.record().kind() == kind).max(LATEST);
    }

    private static final Comparator<Entry> LATEST = Comparator.comparingInt((Entry e) -> e.generation().attempt())
            .thenComparing(Entry::written).thenComparing(e -> e.generation().nonce());

    /** The record of the latest claim, whatever it did: the item's history is in it. */
    Optional<Entry> latest(String id) throws IOException {
        if (!FileFacts.mayExist(layout.file(SpoolFolder.ATTEMPTS, id))) {
            return Optional.empty(); // most items have no records at all: no exception for the usual answer
        }
        return list(id).stream().max(LATEST);
    }

    /**
     * For a claim about to settle in done/: when the item keeps a history (its claim carried one over),
     * this claim's record gets {@code attempt} added, as the record done/ keeps. An item with no records
     * gets none: the drain's usual path writes nothing more than it did.
     */
    void addIfKept(String id, Generation generation, PastAttempt attempt) throws IOException {
        if (!FileFacts.mayExist(layout.file(SpoolFolder.ATTEMPTS, id))) {
            return;
        }
        Optional<AttemptRecord> own = read(id, generation);
        if (own.isPresent()) {
            write(id, generation, own.get().as(AttemptRecord.Kind.DONE).adding(attempt));
        }
    }

    /** A done item keeps the record its settling claim wrote (its history) and nothing else; true when none is left. */
    boolean forgetAllButDone(String id) throws IOException {
        Optional<Entry> kept = latest(id, AttemptRecord.Kind.DONE);
        dropAllBut(id, kept.map(Entry::generation).orElse(null));
        return kept.isEmpty();
    }

    /** Why a failed item failed: the record of the claim that settled it, else what an older spool kept. */
    Optional<String> failedReason(String id) throws IOException {
        Optional<Entry> verdict = latest(id, AttemptRecord.Kind.FAILED);
        return verdict.isPresent() ? verdict.map(e -> e.record().text()) : legacy.of(id).map(LegacyReasons.Legacy::text);
    }

    void delete(String id, Generation generation) throws IOException {
        Optional<Path> folder = folderOf(id);
        if (folder.isPresent()) {
            Files.deleteIfExists(folder.get().resolve(generation.toString()));
        }
    }

    /**
     * Removes the item's records except {@code keep}'s ({@code null}: all of them), and the folder when
     * nothing is kept. Only names that are generations are removed: nothing else is ours. An old
     * {@code reasons/<id>} is left to {@link #forget} (housekeeping's): a claim's own verdict goes before it.
     */
    void dropAllBut(String id, Generation keep) throws IOException {
        Optional<Path> folder = folderOf(id, true);
        if (folder.isPresent()) {
            for (String name : names(folder.get())) {
                if (Generation.parse(name).isPresent() && (keep == null || !name.equals(keep.toString()))) {
                    Files.deleteIfExists(folder.get().resolve(name));
                }
            }
            if (keep == null || !FileFacts.mayExist(folder.get().resolve(keep.toString()))) {
                try {
                    Files.delete(folder.get());
                } catch (DirectoryNotEmptyException | NoSuchFileException e) {
                    // junk we leave alone, or a record written meanwhile by a claim that lost the item
                }
            }
        }
    }

    /** Every record of the item, and its old reason. */
    void forget(String id) throws IOException {
        dropAllBut(id, null);
        forgetLegacy(id);
    }

    /** The item's old {@code reasons/<id>}, if a spool of an older build left one. */
    void forgetLegacy(String id) throws IOException {
        Path old = layout.file(SpoolFolder.REASONS, id);
        Optional<FileFacts> facts = legacy.mayExist(id) ? FileFacts.of(old) : Optional.empty();
        if (facts.isPresent() && !facts.get().directory()) {
            Files.deleteIfExists(old); // a symlink is removed, never followed
        }
    }

    /** The item's folder when it is a real directory; anything else under that name is junk, never entered. */
    private Optional<Path> folderOf(String id) throws IOException {
        return folderOf(id, false);
    }

    /**
     * {@code quick}: a name that stat(2) cannot see counts as absent without an exception, for removals
     * only (a leftover is swept later). Reads look carefully: an NFS hiccup that hid a hand-back's
     * record would restart the item's attempts.
     */
    private Optional<Path> folderOf(String id, boolean quick) throws IOException {
        Path folder = layout.file(SpoolFolder.ATTEMPTS, id);
        Optional<FileFacts> facts = quick ? FileFacts.ofLikelyAbsent(folder) : FileFacts.of(folder);
        if (facts.isPresent() && !facts.get().directory()) {
            report(id, facts.get().problem() + " where the folder of the item's records belongs");
            return Optional.empty();
        }
        return facts.map(f -> folder);
    }

    private Path folderFor(String id) throws IOException {
        Path folder = layout.file(SpoolFolder.ATTEMPTS, id);
        while (true) {
            if (folderOf(id).isPresent()) {
                return folder;
            }
            if (FileFacts.of(folder).isPresent()) {
                throw new IOException("attempts/" + id + " is not a directory: the item's attempt cannot be recorded");
            }
            try {
                Files.createDirectory(folder);
                return folder;
            } catch (FileAlreadyExistsException e) {
                // made by another claim just now: look again
            }
        }
    }

    /** The names in a folder; a folder removed meanwhile has none. */
    static List<String> names(Path folder) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        } catch (NoSuchFileException e) {
            // removed meanwhile: no records
        }
        return names;
    }

    private Optional<AttemptRecord> readFile(String id, String name) throws IOException {
        Optional<String> text = bounded(SpoolFolder.ATTEMPTS, id + "/" + name, layout.file(SpoolFolder.ATTEMPTS, id)
                .resolve(name));
        Optional<AttemptRecord> record = text.flatMap(RecordText::parse);
        if (text.isPresent() && record.isEmpty()) {
            report(id + "/" + name, "not an attempt record (its first line must be 'v3 <kind> <abandoned> <attempts>', or v2 as older builds wrote)");
        }
        return record;
    }

    Optional<String> bounded(SpoolFolder folder, String name, Path file) throws IOException {
        try {
            return Optional.of(new String(SpoolFiles.readBounded(file, MAX_BYTES), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (UnfitFileException e) {
            anomalies.report(folder, name, e.getMessage(), clock.now());
            return Optional.empty();
        }
    }

    private void report(String name, String problem) {
        anomalies.report(SpoolFolder.ATTEMPTS, name, problem, clock.now());
    }
}
