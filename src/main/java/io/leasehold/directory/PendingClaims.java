package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import io.leasehold.spool.AttemptRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The claim of a pending item, {@code pending/<id>} → {@code claimed/<id>~<generation>~<reading>}, for
 * the drain and for a cancel alike. A file with a second name is looked at first ({@link HalfMoves}):
 * a half-done move is finished, an enqueue in flight left for a moment, junk reported and left alone.
 * Then its reservation ({@link Reservations}) must name it: a second file under a known id never runs.
 * An item handed back goes on at the attempt it was handed back at, so restarts never give an item
 * fresh attempts.
 */
final class PendingClaims {

    /** Each look may finish one half-done move; more than that is not a pair any more. */
    private static final int LOOKS = 3;

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final AttemptRecords records;
    private final HalfMoves halfMoves;
    private final Reservations reservations;
    private final SpoolCensus census;
    private final Clock clock;
    private final HolderTag tag;
    private final RecordlessClaims recordless;

    PendingClaims(SpoolLayout layout, SpoolAnomalies anomalies, AttemptRecords records, HalfMoves halfMoves,
            Reservations reservations, SpoolCensus census, Clock clock, HolderTag tag, RecordlessClaims recordless) {
        this.tag = tag;
        this.recordless = recordless;
        this.layout = layout;
        this.anomalies = anomalies;
        this.records = records;
        this.halfMoves = halfMoves;
        this.reservations = reservations;
        this.census = census;
        this.clock = clock;
    }

    /** The new claim; empty when the item is gone (another instance was first) or is not claimable. */
    Optional<ClaimName> claim(String id, Instant reading) throws IOException {
        Path file = layout.file(SpoolFolder.PENDING, id);
        int handedBackAt = 0;
        for (int look = 0; look < LOOKS; look++) {
            Optional<FileFacts> facts = FileFacts.of(file);
            if (facts.isEmpty()) {
                return Optional.empty();
            }
            if (!facts.get().regular()) {
                anomalies.report(SpoolFolder.PENDING, id, facts.get().problem(), clock.now());
                return Optional.empty();
            }
            if (facts.get().links() == 1) {
                return admitted(id, facts.get(), true) ? claimAs(id, file, reading, handedBackAt) : Optional.empty();
            }
            HalfMoves.Look seen = halfMoves.pending(id, facts.get(), true);
            if (seen.verdict() == HalfMoves.Verdict.JUNK) {
                anomalies.report(SpoolFolder.PENDING, id, seen.problem(), clock.now());
                return Optional.empty();
            }
            if (seen.verdict() == HalfMoves.Verdict.IN_FLIGHT) {
                return Optional.empty(); // its enqueue unlinks the upload in a moment and nudges the drain
            }
            handedBackAt = Math.max(handedBackAt, seen.handedBackAt());
        }
        return Optional.empty();
    }

    /** Junk that a claim would refuse now; nothing is changed by looking. */
    boolean wouldRefuse(String id) throws IOException {
        Optional<FileFacts> facts = FileFacts.of(layout.file(SpoolFolder.PENDING, id));
        if (facts.isEmpty()) {
            return false;
        }
        if (!facts.get().regular()) {
            return true;
        }
        if (facts.get().links() > 1) {
            return halfMoves.pending(id, facts.get(), false).verdict() == HalfMoves.Verdict.JUNK;
        }
        Reservations.Admission admission = reservations.admit(id, facts.get(), false);
        return admission == Reservations.Admission.DUPLICATE || admission == Reservations.Admission.JUNK;
    }

    /**
     * The file is the item known as {@code id}: its reservation names it, or nobody had reserved the id
     * (a file dropped in, or a spool older than reservations) and now it does. A second file under a
     * known id is reported and left alone.
     */
    private boolean admitted(String id, FileFacts facts, boolean reserve) throws IOException {
        switch (reservations.admit(id, facts, reserve)) {
            case OWN:
                return true;
            case DUPLICATE:
                anomalies.report(SpoolFolder.PENDING, id, "a second file under the known id " + id + " (ids/" + id
                        + " names the first): never run, never moved", clock.now());
                return false;
            case JUNK:
                anomalies.report(SpoolFolder.PENDING, id, "its reservation ids/" + id + " is junk: not claimed until "
                        + "it is fixed", clock.now());
                return false;
            default:
                return false; // its enqueue is writing the reservation: look again in a moment
        }
    }

    /**
     * Claims under the attempt the item was handed back at: its hand-back's record says which (and the
     * counts so far); a hand-back that stopped after its link says so by its claim name too.
     */
    private Optional<ClaimName> claimAs(String id, Path file, Instant reading, int handedBackAt) throws IOException {
        // A hand-back writes its record before the item is back in pending/, which was just looked at: an item
        // with no record now has none to carry, and its claim no earlier claims' records to drop.
        boolean none = !records.exist(id);
        Optional<AttemptRecords.Entry> carry = none ? Optional.empty() : records.latest(id, AttemptRecord.Kind.HANDED_BACK);
        int attempt = Math.max(handedBackAt, carry.map(e -> e.generation().attempt()).orElse(1));
        Generation generation = Generation.at(attempt, tag);
        ClaimName claim = new ClaimName(id, generation, reading);
        // Written before the claim exists, so a crash right after the rename loses no count.
        if (carry.isPresent()) {
            records.write(id, generation, carry.get().record().as(AttemptRecord.Kind.NOTE));
        }
        if (!SpoolLayout.moveToUniqueName(file, layout.claimFile(claim))) {
            if (carry.isPresent()) {
                records.delete(id, generation);
            }
            return Optional.empty();
        }
        census.moved(SpoolFolder.PENDING, SpoolFolder.CLAIMED);
        if (none) {
            recordless.add(id, generation);
        } else {
            // This claim has the item now: what the claims before it recorded is of no more use.
            records.dropAllBut(id, carry.isPresent() ? generation : null);
        }
        anomalies.forget(SpoolFolder.PENDING, id);
        return Optional.of(claim);
    }
}
