package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Since when each running claim of the spool (any holder's) has been held, kept in memory so a scrape
 * reads it without a file or network call. A claim's names carry only its current lease's reading, so
 * "held since" is the earliest reading seen of its generation: a renewal keeps the generation and so
 * the start, a takeover makes a new one and starts afresh. Readings are on the holder's clock. A claim
 * taken before this instance first saw it counts from the reading it first saw (later than the start
 * by up to one renewal interval of a live holder; {@link #carryOver} keeps what an older look saw).
 */
public final class RunningClaims {

    private record Held(Generation generation, Instant since) {
    }

    private final Map<String, Held> byId = new ConcurrentHashMap<>();
    /**
     * What an earlier picture saw, consulted only when a claim is first seen here: never counted itself.
     * An entry goes at its first sight here and the rest once a look is whole, so it does not grow.
     */
    private final Map<String, Held> earlier = new ConcurrentHashMap<>();

    /** {@code claim} runs now (held, not parked). */
    public void running(ClaimName claim) {
        byId.compute(claim.id(), (id, old) -> {
            Held carried = earlier.remove(id);
            Held known = old != null ? old : carried;
            if (known != null && known.generation().equals(claim.generation())
                    && !known.since().isAfter(claim.reading())) {
                return known;
            }
            return new Held(claim.generation(), claim.reading());
        });
    }

    /** The item {@code id} has no running claim now (parked, settled, pending, gone). */
    public void notRunning(String id) {
        byId.remove(id);
        earlier.remove(id);
    }

    /** A whole look found running claims of these ids alone. */
    public void retainOnly(Set<String> ids) {
        byId.keySet().retainAll(ids);
        lookWhole();
    }

    /** Every claim there is has been seen: what an earlier picture saw has nothing more to tell. */
    public void lookWhole() {
        earlier.clear();
    }

    /** Starts from what {@code older} saw: a claim it saw keeps its start when first seen here. */
    public void carryOver(RunningClaims older) {
        earlier.clear();
        earlier.putAll(older.byId);
    }

    /** How many starts of an earlier picture are still kept (for tests: it must not grow without end). */
    int carriedOver() {
        return earlier.size();
    }

    /** The oldest running claim's age at {@code now}, and how many have been held longer than {@code bound}. */
    public ClaimAges ages(Instant now, Duration bound) {
        long nowMs = now.toEpochMilli();
        long boundMs = bound.toMillis();
        long oldest = 0;
        long older = 0;
        for (Held held : byId.values()) {
            long age = Math.max(0, nowMs - held.since().toEpochMilli());
            oldest = Math.max(oldest, age);
            if (age > boundMs) {
                older++;
            }
        }
        return new ClaimAges(oldest, older);
    }
}
