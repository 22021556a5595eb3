package io.leasehold.directory;

import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The claims of claimed/ that are parked (until a scheduled time, or for a retry), by id, with how many
 * of each: what lets the census count them apart from the held claims. Only a claim's record tells a
 * parked one, so this instance's own moves tell it at once (a scheduled enqueue, a retry's park, a take of
 * a parked claim) and a recount's listing brings in everyone else's ({@link #listed}). Every own move
 * stamps its id, so a listing never undoes a move made after it began (the listing may not have seen it).
 */
final class ParkedClaims {

    /** One parked claim: its generation (a take makes a new one) and why it waits. */
    record Parked(Generation generation, AttemptRecord.Kind kind) {
    }

    private final Map<String, Parked> byId = new ConcurrentHashMap<>();
    /** The ids own moves changed, each with the stamp of its last change: only until a listing has begun after it. */
    private final Map<String, Long> changedAt = new ConcurrentHashMap<>();
    private final AtomicLong stamps = new AtomicLong();
    private final AtomicLong scheduled = new AtomicLong();
    private final AtomicLong retrying = new AtomicLong();

    long scheduled() {
        return Math.max(0, scheduled.get());
    }

    long retrying() {
        return Math.max(0, retrying.get());
    }

    /** This instance parked the claim {@code generation} of {@code id}, for {@code kind} (scheduled or retry). */
    void parked(String id, Generation generation, AttemptRecord.Kind kind) {
        Parked now = new Parked(generation, kind);
        byId.compute(id, (k, old) -> {
            changedAt.put(id, stamps.incrementAndGet());
            count(old, -1);
            count(now, 1);
            return now;
        });
    }

    /** This instance took or settled the claim {@code generation} of {@code id}: if it was parked, it is not now. */
    void unparked(String id, Generation generation) {
        byId.compute(id, (k, old) -> {
            changedAt.put(id, stamps.incrementAndGet()); // known or not: a listing begun before must not park it
            if (old == null || !old.generation().equals(generation)) {
                return old;
            }
            count(old, -1);
            return null;
        });
    }

    /**
     * This instance renamed the claim {@code generation} of {@code id} keeping its generation (a renewal, or
     * the park that follows a retry's record): true when it is parked, whose rename a listing begun before
     * may have missed, so that listing leaves it alone.
     */
    boolean renamed(String id, Generation generation) {
        boolean[] parkedOne = new boolean[1];
        byId.computeIfPresent(id, (k, old) -> {
            if (old.generation().equals(generation)) {
                changedAt.put(id, stamps.incrementAndGet());
                parkedOne[0] = true;
            }
            return old;
        });
        return parkedOne[0];
    }

    /** Where a listing of claimed/ begins: what {@link #listed} is given. */
    long mark() {
        return stamps.get();
    }

    /**
     * A listing of claimed/ begun at {@code mark} found {@code listed} parked: every id takes what the
     * listing found, but for those an own move changed since it began (that move knows better).
     */
    void listed(Map<String, Parked> listed, long mark) {
        Set<String> ids = new HashSet<>(byId.keySet());
        ids.addAll(listed.keySet());
        for (String id : ids) {
            Parked found = listed.get(id);
            byId.compute(id, (k, current) -> {
                if (changedAt.getOrDefault(id, 0L) > mark) {
                    return current;
                }
                count(current, -1);
                count(found, 1);
                return found;
            });
        }
        changedAt.entrySet().removeIf(e -> e.getValue() <= mark); // a later listing needs only later stamps
    }

    private void count(Parked parked, int by) {
        if (parked == null) {
            return;
        }
        (parked.kind() == AttemptRecord.Kind.SCHEDULED ? scheduled : retrying).addAndGet(by);
    }
}
