package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Retries parked by an instance whose wall clock was stepped ahead: their due time lies further ahead
 * than any backoff plus max-skew could put it, so they are due now instead of an hour from now. Told apart
 * from live claims of a clock ahead, and from items scheduled for later, by their record (a parked retry's
 * says so; nobody renews that claim). Each far-ahead name's record is read once while the name stands.
 */
final class FarAheadRetries {

    private final Spool spool;
    private final LeaseTerms terms;
    /** The furthest ahead a parked retry's due time can honestly be: the longest backoff, plus max-skew. */
    private final Duration furthest;
    private final Map<String, Boolean> retries = new HashMap<>();

    FarAheadRetries(Spool spool, LeaseTerms terms, Duration longestBackoff) {
        this.spool = spool;
        this.terms = terms;
        this.furthest = longestBackoff.plus(terms.maxSkew());
    }

    /** Whether {@code seen} is a parked retry due further ahead of {@code now} than any backoff makes it. */
    synchronized boolean dueNow(ClaimName seen, Instant now) {
        if (!terms.takeableAt(seen).isAfter(now.plus(furthest))) {
            return false;
        }
        Boolean retry = retries.get(seen.fileName());
        if (retry == null) {
            try {
                retry = spool.record(seen.id(), seen.generation()).map(AttemptRecord::kind)
                        .filter(k -> k == AttemptRecord.Kind.RETRY).isPresent();
            } catch (IOException e) {
                return false; // unreadable now: not due early, and looked at again next scan (the scan goes on)
            }
            retries.put(seen.fileName(), retry);
        }
        return retry;
    }

    /** Forgets the names no longer in claimed/. */
    synchronized void listed(Collection<ClaimName> claims) {
        Set<String> names = new HashSet<>();
        claims.forEach(c -> names.add(c.fileName()));
        retries.keySet().retainAll(names);
    }
}
