package io.leasehold.core;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * When this instance first saw each claim name, on its own monotonic clock. A renewal gives a claim
 * a new name, so a name seen unchanged for longer than its holder's renewals allow belongs to a holder
 * that stopped; no other machine's clock is consulted. Only the names of the latest listing are kept.
 */
public final class Sightings {

    /** A name this instance wrote itself when it let go of the claim (a retry parked for backoff). */
    private static final long OWN = Long.MIN_VALUE;

    private Map<String, Long> firstSeen = new HashMap<>();

    /** Records a full listing of claimed/ made at {@code nowNanos}; names not in it are forgotten. */
    public synchronized void listed(Collection<ClaimName> claims, long nowNanos) {
        Map<String, Long> next = new HashMap<>(Math.max(16, claims.size() * 2));
        for (ClaimName claim : claims) {
            next.put(claim.fileName(), firstSeen.getOrDefault(claim.fileName(), nowNanos));
        }
        firstSeen = next;
    }

    /**
     * This instance parked the claim under this name and let go of it: nobody renews it any more, by
     * design, so it needs no watching before this instance takes it again.
     */
    public synchronized void letGo(ClaimName parked) {
        firstSeen.put(parked.fileName(), OWN);
    }

    /** Seen under this exact name for longer than {@code span}, or let go of by this instance. */
    public synchronized boolean unchangedFor(ClaimName claim, Duration span, long nowNanos) {
        Long seen = firstSeen.get(claim.fileName());
        return seen != null && (seen == OWN || nowNanos - seen > span.toNanos());
    }
}
