package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import io.leasehold.directory.linux.LinuxCalls;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.PastAttempt;
import io.leasehold.spool.Spool;
import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
    private final MovesOut movesOut;
    private final JunkChecks junk;
    private final HolderTag tag;
    private final RecordlessClaims recordless = new RecordlessClaims();

    /** @param maxPayloadBytes {@code leasehold.item.max-bytes}: a larger payload is never read */
    public PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, long maxPayloadBytes) {
        this(layout, anomalies, clock, maxPayloadBytes, HolderTag.NONE);
    }

    /** @param tag names this instance in the nonces of its claims */
    public PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, long maxPayloadBytes, HolderTag tag) {
        this(layout, anomalies, clock, maxPayloadBytes, tag, DirectoryOptions.DEFAULTS);
    }

    private final Optional<LinuxCalls> linux;

    /** @param options how files are written: reservations by links, settlements by Linux's own calls */
    public PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, long maxPayloadBytes, HolderTag tag,
            DirectoryOptions options) {
        this(layout, anomalies, clock, maxPayloadBytes, tag, options,
                options.linuxCalls() ? LinuxCalls.load() : Optional.empty());
    }

    /** @param linux the calls the moves out of claimed/ use; a test stages a filesystem without them */
    PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, long maxPayloadBytes, HolderTag tag,
            DirectoryOptions options, Optional<LinuxCalls> linux) {
        this.tag = tag;
        this.layout = layout;
        this.anomalies = anomalies;
        this.clock = clock;
        this.maxPayloadBytes = maxPayloadBytes;
        this.records = new AttemptRecords(layout, anomalies, clock);
        this.halfMoves = new HalfMoves(layout, clock);
        this.reservations = new Reservations(layout, anomalies, clock, options.reservationLinks());
        this.pendingClaims = new PendingClaims(layout, anomalies, records, halfMoves, reservations, census, clock, tag,
                recordless);
        this.movesOut = new MovesOut(layout, anomalies, halfMoves, census, clock, this::find, linux);
        this.linux = linux;
        this.junk = new JunkChecks(layout, anomalies, halfMoves, pendingClaims, clock);
    }

    /** What this instance's moves and the recounts say each folder holds. */
    public SpoolCensus census() {
        return census;
    }

    @Override
    public HolderTag holderTag() {
        return tag;
    }

    /** The Linux calls this spool was given (settlements may have turned theirs off since: {@link #settlesByRename}). */
    Optional<LinuxCalls> linuxCalls() {
        return linux;
    }

    /** Whether settlements go by one renameat2 (not yet refused by the filesystem). */
    boolean settlesByRename() {
        return movesOut.byRename();
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
        return PendingListing.batch(layout, anomalies, clock, max);
    }

    /** Stops reporting junk that was removed or replaced by a proper item since it was seen. */
    public void forgetFixedJunk() {
        junk.forgetFixed();
    }

    /** Whether the claim's file is junk (a symlink, a FIFO, a second name ...), reported when it is; false when fit or gone. */
    boolean isJunk(ClaimName claim) throws IOException {
        return junk.claimIsJunk(claim);
    }

    @Override
    public Optional<ClaimName> claim(String id, Instant reading) throws IOException {
        return pendingClaims.claim(id, reading);
    }

    @Override
    public boolean restamp(ClaimName from, ClaimName to) throws IOException {
        Spool.requireRestamp(from, to);
        return rename(from, to);
    }

    /**
     * The claim's file is renamed to the taker's name, unless it is junk (reported, never moved, so its name
     * stays the one every instance knows); a half-done settlement or hand-back of it is finished instead.
     */
    @Override
    public Optional<ClaimName> takeOver(ClaimName seen, Instant reading) throws IOException {
        if (isJunk(seen)) {
            return Optional.empty();
        }
        ClaimName taken = Spool.takerOf(seen, record(seen.id(), seen.generation()), tag, reading);
        return rename(seen, taken) && keepTaken(taken) ? Optional.of(taken) : Optional.empty();
    }

    /** claimed/{from} → claimed/{to}, never replacing a file there; false when {@code from} is gone. */
    boolean rename(ClaimName from, ClaimName to) throws IOException {
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

    /** {@code leasehold.item.max-bytes}: no payload is read past it. */
    long maxPayloadBytes() {
        return maxPayloadBytes;
    }

    @Override
    public Optional<byte[]> payload(ClaimName claim) throws IOException {
        try {
            return Optional.of(SpoolFiles.readBounded(layout.claimFile(claim), maxPayloadBytes,
                    "the payload of " + claim.id()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (UnfitFileException e) {
            if (e.kind() == UnfitFileException.Kind.JUNK) {
                anomalies.report(SpoolFolder.CLAIMED, claim.fileName(), e.getMessage(), clock.now());
            }
            throw e;
        }
    }

    /** After a takeover's rename: false when the file also has a settled or pending name (a move left half-done), which wins. */
    private boolean keepTaken(ClaimName taken) throws IOException {
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
        recordless.forget(claim.id(), claim.generation());
        if (!movesOut.move(claim, SpoolFolder.of(where))) {
            return false;
        }
        // A failed item keeps only the record that says why; a done one its settling claim's, if it wrote one.
        records.dropAllBut(claim.id(), claim.generation());
        return true;
    }

    @Override
    public boolean settleDone(ClaimName claim, PastAttempt attempt) throws IOException {
        if (!recordless.contains(claim.id(), claim.generation())) { // a claim with no record keeps no history
            records.addIfKept(claim.id(), claim.generation(), attempt);
        }
        return settle(claim, ItemState.DONE);
    }

    @Override
    public boolean handBack(ClaimName claim) throws IOException {
        // The next claim goes on at this attempt with the counts so far: written before the item is back.
        Optional<AttemptRecord> own = recordless.contains(claim.id(), claim.generation()) ? Optional.empty()
                : records.read(claim.id(), claim.generation());
        if (own.isPresent() || claim.generation().attempt() > 1) {
            records.write(claim.id(), claim.generation(), own.orElse(AttemptRecord.note(0, ""))
                    .as(AttemptRecord.Kind.HANDED_BACK));
        }
        return movesOut.move(claim, SpoolFolder.PENDING);
    }

    @Override
    public Optional<AttemptRecord> record(String id, Generation generation) throws IOException {
        return records.read(id, generation);
    }

    @Override
    public void writeRecord(String id, Generation generation, AttemptRecord record) throws IOException {
        recordless.forget(id, generation); // first: a reader must never take the claim for one without a record
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
        records.forgetLegacy(claim.id());
    }
}
