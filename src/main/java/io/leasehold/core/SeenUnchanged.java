package io.leasehold.core;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * When this instance first saw each thing (a file in tmp/, a staged ledger entry) as it looks now, on its
 * own monotonic clock: one whose look (inode, size and time; a revision) changed counts from the change.
 * Only local time is trusted, as for claims ({@link Sightings}); a thing not seen by the latest pass is
 * forgotten. How other writers' leftovers are told from live work, whatever the wall clocks say.
 */
public final class SeenUnchanged {

    private record Seen(Object look, long sinceNanos) {
    }

    private final Clock clock;
    private final Map<String, Seen> seen = new HashMap<>();

    public SeenUnchanged(Clock clock) {
        this.clock = clock;
    }

    /**
     * Whether {@code name}, looking like {@code look}, has looked so here for at least {@code quiet}: a
     * first look (or a changed one) meets only a span of zero.
     */
    public synchronized boolean quietFor(String name, Object look, Duration quiet) {
        long now = clock.monotonicNanos();
        Seen before = seen.get(name);
        if (before == null || !before.look().equals(look)) {
            before = new Seen(look, now);
            seen.put(name, before);
        }
        return now - before.sinceNanos() >= quiet.toNanos();
    }

    /** Forgets every entry but these (the latest pass's). */
    public synchronized void keepOnly(Set<String> names) {
        seen.keySet().retainAll(names);
    }
}
