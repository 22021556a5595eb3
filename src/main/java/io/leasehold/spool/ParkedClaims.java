package io.leasehold.spool;

import io.leasehold.core.Generation;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The claims of claimed/ that are parked (until a scheduled time, or for a retry), by id, with how many
 * of each: what lets the census count them apart from the held claims. Only a claim's record tells a
 * parked one, so this instance's own moves tell it at once (a scheduled enqueue, a retry's park, a take of
 * a parked claim) and a recount's listing brings in everyone else's ({@link #listed}).
 */
final class ParkedClaims {

    /** One parked claim: its generation (a take makes a new one) and why it waits. */
    record Parked(Generation generation, AttemptRecord.Kind kind) {
    }

    private final Map<String, Parked> byId = new ConcurrentHashMap<>();
    private final AtomicLong scheduled = new AtomicLong();
    private final AtomicLong retrying = new AtomicLong();

    long scheduled() {
        return Math.max(0, scheduled.get());
    }

    long retrying() {
        return Math.max(0, retrying.get());
    }

    /** The claim {@code generation} of {@code id} is parked now, for {@code kind} (scheduled or retry). */
    void parked(String id, Generation generation, AttemptRecord.Kind kind) {
        Parked now = new Parked(generation, kind);
        byId.compute(id, (k, old) -> {
            count(old, -1);
            count(now, 1);
            return now;
        });
    }

    /** The claim {@code generation} of {@code id} is no longer parked (taken, settled); others are left alone. */
    void unparked(String id, Generation generation) {
        byId.computeIfPresent(id, (k, old) -> {
            if (!old.generation().equals(generation)) {
                return old;
            }
            count(old, -1);
            return null;
        });
    }

    /** What {@link #listed} compares a listing with: the parked claims known before it began. */
    Map<String, Parked> snapshot() {
        return Map.copyOf(byId);
    }

    /**
     * A listing of claimed/ found {@code listed} parked, and {@code before} was known as it began. Each id
     * takes what the listing found, unless an own move changed it since (its entry is no longer what it
     * was before): that move knows better, and anything it raced waits for the next recount.
     */
    void listed(Map<String, Parked> listed, Map<String, Parked> before) {
        Set<String> ids = new HashSet<>(before.keySet());
        ids.addAll(listed.keySet());
        for (String id : ids) {
            Parked was = before.get(id);
            Parked found = listed.get(id);
            byId.compute(id, (k, current) -> {
                if (!Objects.equals(current, was)) {
                    return current;
                }
                count(current, -1);
                count(found, 1);
                return found;
            });
        }
    }

    private void count(Parked parked, int by) {
        if (parked == null) {
            return;
        }
        (parked.kind() == AttemptRecord.Kind.SCHEDULED ? scheduled : retrying).addAndGet(by);
    }
}
