package io.leasehold.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Where a scheduled item waits: under a claim of nobody's, parked as a retry is parked, with a reading
 * that makes its lease run out at its runAt. Whoever takes it then makes its first attempt; until then
 * no instance may take it, whatever it sees.
 */
public final class Schedule {

    private Schedule() {
    }

    /**
     * The claim an enqueue parks the item under until {@code runAt}; empty when the item is to run now (no
     * runAt, or one not after {@code now}). The reading is rounded up to the millisecond a claim name
     * keeps, so the claim is never takeable before {@code runAt}.
     */
    public static Optional<ClaimName> parkedClaim(String id, Instant runAt, Instant now, LeaseTerms terms) {
        if (runAt == null || !runAt.isAfter(now)) {
            return Optional.empty();
        }
        Instant reading = terms.readingTakeableAt(runAt);
        Instant kept = reading.truncatedTo(ChronoUnit.MILLIS);
        return Optional.of(new ClaimName(id, Generation.first(), kept.isBefore(reading) ? kept.plusMillis(1) : kept));
    }
}
