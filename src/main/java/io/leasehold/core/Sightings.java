package io.leasehold.core;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * When this instance first saw each claim name, on its own monotonic clock. A renewal gives a claim
 * a new name, so a name seen unchanged for longer than its holder's renewals allow belongs to a holder
 * that stopped; no other machine's clock is consulted. Only the names of the latest listing are kept.
 */
public final class Sightings {

    private Map<String, Long> firstSeen = new HashMap<>();
    /** Names this instance wrote when it let go of a claim (a retry parked for backoff), with when. */
    private final Map<String, Long> letGo = new HashMap<>();

    /**
     * Records a full listing of claimed/, started at {@code startedNanos} and ended at {@code endedNanos};
     * names not in it are forgotten. A name first seen in it counts from the end, so no name is ever
     * thought older than it is.
     */
    public synchronized void listed(Collection<ClaimName> claims, long startedNanos, long endedNanos) {
        Map<String, Long> next = new HashMap<>(Math.max(16, claims.size() * 2));
        Set<String> names = new HashSet<>(Math.max(16, claims.size() * 2));
        for (ClaimName claim : claims) {
            names.add(claim.fileName());
            next.put(claim.fileName(), firstSeen.getOrDefault(claim.fileName(), endedNanos));
        }
        firstSeen = next;
        // A listing that began before the park may not show the parked name yet: only one that began
        // after it, and does not show it, means the claim moved on.
        letGo.entrySet().removeIf(e -> !names.contains(e.getKey()) && startedNanos - e.getValue() > 0);
    }

    /**
     * This instance parked the claim under this name and let go of it at {@code nowNanos}: nobody
     * renews it any more, by design, so it needs no watching before this instance takes it again.
     */
    public synchronized void letGo(ClaimName parked, long nowNanos) {
        letGo.put(parked.fileName(), nowNanos);
    }

    /** Seen under this exact name for longer than {@code span}, or let go of by this instance. */
    public synchronized boolean unchangedFor(ClaimName claim, Duration span, long nowNanos) {
        if (letGo.containsKey(claim.fileName())) {
            return true;
        }
        Long seen = firstSeen.get(claim.fileName());
        return seen != null && nowNanos - seen > span.toNanos();
    }
}
