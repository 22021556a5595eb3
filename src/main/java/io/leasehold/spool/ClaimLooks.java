package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Brings {@link RunningClaims} up to a recount's listing of claimed/. Whether a claim is parked only its
 * record says, and a claim is parked or unparked only by a rename: so the record is read once per name
 * first listed (a held claim's renewals, a parked claim never), on the census's thread, never by a scrape.
 */
final class ClaimLooks {

    private final AttemptRecords records;
    private final RunningClaims running;
    /** Whether each name of the last listing is parked. */
    private Map<String, Boolean> parkedByName = Map.of();

    ClaimLooks(AttemptRecords records, RunningClaims running) {
        this.records = records;
        this.running = running;
    }

    /** {@code claims} is all claimed/ held at one listing. */
    void listed(List<ClaimName> claims) throws IOException {
        Map<String, Boolean> seen = new HashMap<>();
        Set<String> runningIds = new HashSet<>();
        for (ClaimName claim : claims) {
            Boolean parked = parkedByName.get(claim.fileName());
            if (parked == null) {
                parked = records.read(claim.id(), claim.generation()).map(AttemptRecord::parks).orElse(false);
            }
            seen.put(claim.fileName(), parked);
            if (!parked) {
                running.running(claim);
                runningIds.add(claim.id());
            }
        }
        running.retainOnly(runningIds);
        parkedByName = seen;
    }
}
