package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The claim of a pending item, {@code pending/<id>} → {@code claimed/<id>~<generation>~<reading>}, for
 * the drain and for a cancel alike. An item handed back goes on at the attempt it was handed back at,
 * read from the hand-back's record, so restarts never give an item fresh attempts.
 */
final class PendingClaims {

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final AttemptRecords records;
    private final Clock clock;

    PendingClaims(SpoolLayout layout, SpoolAnomalies anomalies, AttemptRecords records, Clock clock) {
        this.layout = layout;
        this.anomalies = anomalies;
        this.records = records;
        this.clock = clock;
    }

    /** The new claim; empty when the item is gone (another instance was first) or is not claimable. */
    Optional<ClaimName> claim(String id, Instant reading) throws IOException {
        Path file = layout.file(SpoolFolder.PENDING, id);
        Optional<FileFacts> facts = FileFacts.of(file);
        if (facts.isEmpty()) {
            return Optional.empty();
        }
        if (!facts.get().regular()) {
            anomalies.report(SpoolFolder.PENDING, id, facts.get().problem(), clock.now());
            return Optional.empty();
        }
        return claimAs(id, file, reading, records.latest(id, AttemptRecord.Kind.HANDED_BACK));
    }

    private Optional<ClaimName> claimAs(String id, Path file, Instant reading, Optional<AttemptRecords.Entry> carry)
            throws IOException {
        Generation generation = Generation.at(carry.map(e -> e.generation().attempt()).orElse(1));
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
        // This claim has the item now: what the claims before it recorded is of no more use.
        records.dropAllBut(id, carry.isPresent() ? generation : null);
        anomalies.forget(SpoolFolder.PENDING, id);
        return Optional.of(claim);
    }
}
