package io.leasehold.spool;

import io.leasehold.core.Clock;
import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import io.leasehold.core.ItemId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/** The claim protocol on a POSIX filesystem: every state change is one rename(2). */
public final class PosixSpool implements Spool {

    private static final Logger LOG = Logger.getLogger(PosixSpool.class);

    /** A listing racing a rename in the same directory can miss the entry once; look a few times. */
    private static final int LOOKS = 3;

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final Clock clock;
    private final long maxPayloadBytes;
    private final AttemptRecords records;
    private final HalfMoves halfMoves;
    private final Reservations reservations;
    private final PendingClaims pendingClaims;
    private final SpoolCensus census = new SpoolCensus();
    private final HolderTag tag;

    /** @param maxPayloadBytes {@code leasehold.item.max-bytes}: a larger payload is never read */
    public PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, long maxPayloadBytes) {
        this(layout, anomalies, clock, maxPayloadBytes, HolderTag.NONE);
    }

    /** @param tag names this instance in the nonces of its claims */
    public PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, long maxPayloadBytes, HolderTag tag) {
        this.tag = tag;
        this.layout = layout;
        this.anomalies = anomalies;
        this.clock = clock;
        this.maxPayloadBytes = maxPayloadBytes;
        this.records = new AttemptRecords(layout, anomalies, clock);
        this.halfMoves = new HalfMoves(layout, clock);
        this.reservations = new Reservations(layout, anomalies, clock);
        this.pendingClaims = new PendingClaims(layout, anomalies, records, halfMoves, reservations, census, clock, tag);
    }

    /** What this instance's moves and the recounts say each folder holds. */
    public SpoolCensus census() {
        return census;
    }

    @Override
    public HolderTag holderTag() {
        return tag;
    }

    AttemptRecords records() {
        return records;
    }

    PendingClaims pendingClaims() {
        return pendingClaims;
    }

    HalfMoves halfMoves() {
        return halfMoves;
    }

    Reservations reservations() {
        return reservations;
    }

    @Override
    public List<String> pendingBatch(int max) throws IOException {
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

    /** Stops reporting junk that was removed or replaced by a proper item since it was seen. */
    public void forgetFixedJunk() {
        anomalies.recheck((folder, name) -> {
            Path path = layout.file(folder, name);
            try {
                BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (folder == SpoolFolder.PENDING) {
                    return !ItemId.isValid(name) || pendingClaims.wouldRefuse(name);
                }
                if (folder == SpoolFolder.IDS || folder == SpoolFolder.ATTEMPTS || folder == SpoolFolder.REASONS) {
                    return !fitBookkeeping(folder, name, a);
                }
                return folder == SpoolFolder.CLAIMED ? ClaimName.parse(name).isEmpty() || junkProblem(path).isPresent()
                        : !ItemId.isValid(name) || !a.isRegularFile();
            } catch (IOException e) {
                return false; // gone
            }
        });
    }

    /** A bookkeeping entry that is fine now: a plain file of the spool's own (a real folder of records). */
    private boolean fitBookkeeping(SpoolFolder folder, String name, BasicFileAttributes a) throws IOException {
        if (folder == SpoolFolder.ATTEMPTS && name.indexOf('/') < 0) {
            return a.isDirectory();
        }
        try {
            SpoolFiles.fitAttributes(layout.file(folder, name), AttemptRecords.MAX_BYTES);
            return true;
        } catch (UnfitFileException e) {
            return false;
        }
    }

    @Override
    public Optional<ClaimName> claim(String id, Instant reading) throws IOException {
        return pendingClaims.claim(id, reading);
    }

    @Override
    public boolean rename(ClaimName from, ClaimName to) throws IOException {
        boolean moved = SpoolLayout.moveToUniqueName(layout.claimFile(from), layout.claimFile(to));
        if (moved && !from.generation().equals(to.generation())) {
            census.unparked(from.id(), from.generation()); // a take: parked or not, the old claim is no more
        } else if (moved) {
            census.renamed(from.id(), from.generation());
        }
        return moved;
    }

    @Override
    public Optional<ClaimName> find(String id, Generation generation) throws IOException {
        String prefix = ClaimName.prefix(id, generation);
        for (int look = 0; look < LOOKS; look++) {
            try (DirectoryStream<Path> entries = SpoolLayout.startingWith(layout.folder(SpoolFolder.CLAIMED), prefix)) {
                for (Path entry : entries) {
                    Optional<ClaimName> parsed = ClaimName.parse(entry.getFileName().toString());
                    if (parsed.isPresent() && parsed.get().generation().equals(generation)) {
                        return parsed;
                    }
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public List<ClaimName> claims() throws IOException {
        List<ClaimName> out = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.CLAIMED))) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                Optional<ClaimName> parsed = ClaimName.parse(name);
                if (parsed.isPresent()) {
                    out.add(parsed.get());
                } else {
                    anomalies.report(SpoolFolder.CLAIMED, name, "not a claim name <id>~<generation>~<reading>",
                            clock.now());
                }
            }
        }
        return out;
    }

    @Override
    public byte[] payload(ClaimName claim) throws IOException {
        try {
            return SpoolFiles.readBounded(layout.claimFile(claim), maxPayloadBytes, "the payload of " + claim.id());
        } catch (UnfitFileException e) {
            if (e.kind() == UnfitFileException.Kind.JUNK) {
                anomalies.report(SpoolFolder.CLAIMED, claim.fileName(), e.getMessage(), clock.now());
            }
            throw e;
        }
    }

    @Override
    public boolean isJunk(ClaimName claim) throws IOException {
        Optional<String> problem = junkProblem(layout.claimFile(claim));
        if (problem.isPresent() && halfMoves.leftHalfDone(claim)) {
            return false; // a second name from a move that stopped half-way: the takeover finishes it
        }
        problem.ifPresent(p -> anomalies.report(SpoolFolder.CLAIMED, claim.fileName(), p, clock.now()));
        return problem.isPresent();
    }

    /** What makes the file junk (never its size), or empty when it is fit or gone. */
    private static Optional<String> junkProblem(Path file) throws IOException {
        try {
            SpoolFiles.fitAttributes(file, Long.MAX_VALUE);
            return Optional.empty();
        } catch (UnfitFileException e) {
            return Optional.of(e.getMessage());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean keepTaken(ClaimName taken) throws IOException {
        if (!halfMoves.keepTaken(taken)) {
            return false;
        }
        // A claim of a spool older than reservations makes its id known now.
        Optional<FileFacts> facts = FileFacts.of(layout.claimFile(taken));
        if (facts.isPresent() && !reservations.adopt(taken.id(), facts.get().ino())) {
            LOG.warnf("took over %s, but ids/%s names another file (or is junk)", taken, taken.id());
        }
        return facts.isPresent();
    }

    @Override
    public boolean settle(ClaimName claim, ItemState where) throws IOException {
        if (where != ItemState.DONE && where != ItemState.FAILED) {
            throw new IllegalArgumentException("settle goes to done or failed, not " + where);
        }
        if (!moveOut(claim, where.folder())) {
            return false;
        }
        // A failed item keeps only the record that says why; a done one its settling claim's, if it wrote one.
        records.dropAllBut(claim.id(), claim.generation());
        return true;
    }

    @Override
    public boolean settleDone(ClaimName claim, PastAttempt attempt) throws IOException {
        records.addIfKept(claim.id(), claim.generation(), attempt);
        return settle(claim, ItemState.DONE);
    }

    @Override
    public boolean handBack(ClaimName claim) throws IOException {
        // The next claim goes on at this attempt with the counts so far: written before the item is back.
        Optional<AttemptRecord> own = records.read(claim.id(), claim.generation());
        if (own.isPresent() || claim.generation().attempt() > 1) {
            records.write(claim.id(), claim.generation(), own.orElse(AttemptRecord.note(0, ""))
                    .as(AttemptRecord.Kind.HANDED_BACK));
        }
        return moveOut(claim, SpoolFolder.PENDING);
    }

    /** claimed/{claim} → {to}/{id}: link (never replaces), then unlink the claim's own name. */
    private boolean moveOut(ClaimName claim, SpoolFolder to) throws IOException {
        Path source = layout.claimFile(claim);
        Optional<FileFacts> facts = FileFacts.of(source);
        if (facts.isEmpty()) {
            return false;
        }
        if (facts.get().links() > 1 && !halfMoves.keepTaken(claim)) {
            return false; // settled or back in pending/ already, by a move that stopped half-way
        }
        if (to != SpoolFolder.PENDING) {
            stampSettled(source, facts.get());
        }
        switch (SharedNames.link(source, layout.file(to, claim.id()))) {
            case SOURCE_GONE:
                return false;
            case TAKEN:
                anomalies.report(to, claim.id(), "holds another file than the item known as " + claim.id()
                        + ": never replaced", clock.now());
                throw new ItemStore.DuplicateItemException(claim.id(), to.dirName() + "/" + claim.id()
                        + " holds another file; " + claim + " stays where it is");
            default:
                unlinkOwnName(claim, facts.get().ino());
                census.unparked(claim.id(), claim.generation());
                census.moved(SpoolFolder.CLAIMED, to, facts.get().modified());
                return true;
        }
    }

    /**
     * A settled file's modification time says when it was settled, on this instance's clock: what retention
     * ({@code spool.done-max-age}, {@code DELETE /items?olderThan=}) and the oldest-first listings of done/ and
     * failed/ count from. Set on the claim's own name before the link, so a crash after the link leaves it set;
     * best effort (the link decides the move, and a name gone meanwhile is its business).
     */
    private void stampSettled(Path claimFile, FileFacts facts) {
        if (!facts.regular()) {
            return;
        }
        try {
            Files.getFileAttributeView(claimFile, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(FileTime.from(clock.now()), null, null);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debugf("could not date the settlement of %s: %s", claimFile.getFileName(), e.getMessage());
        }
    }

    /** The claim's name, or the one its renewal renamed it to between the link and now. */
    private void unlinkOwnName(ClaimName claim, long ino) throws IOException {
        ClaimName name = claim;
        for (int look = 0; look < LOOKS; look++) {
            if (SpoolFiles.unlink(layout.claimFile(name))) {
                return;
            }
            Optional<ClaimName> found = find(claim.id(), claim.generation());
            Optional<FileFacts> facts = found.isEmpty() ? Optional.empty()
                    : FileFacts.of(layout.claimFile(found.get()));
            if (facts.isEmpty() || facts.get().ino() != ino) {
                return; // gone: the pending name won a hand-back pair, or a taker stepped back
            }
            name = found.get();
        }
    }

    @Override
    public Optional<AttemptRecord> record(String id, Generation generation) throws IOException {
        return records.read(id, generation);
    }

    @Override
    public void writeRecord(String id, Generation generation, AttemptRecord record) throws IOException {
        records.write(id, generation, record);
        if (record.kind() == AttemptRecord.Kind.RETRY) {
            // Only the claim's holder writes its record, and a retry's is written just before the claim is
            // parked: counted as parked from here (should the park be lost, the next recount says so), and
            // the park's rename ({@link #rename}) tells a recount that listed the held name to leave it.
            census.parked(id, generation, AttemptRecord.Kind.RETRY);
        }
    }

    @Override
    public void dropEarlierRecords(ClaimName claim) throws IOException {
        records.dropAllBut(claim.id(), claim.generation());
    }

    private static Optional<BasicFileAttributes> attributesOf(Path path) throws IOException {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty(); // claimed by another instance since the listing
        }
    }
}
