package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Where every item of a spool is, read from its folders on disk: the four states of the spool protocol
 * (pending, claimed, done, failed; docs/protocol.md, Folders), each id with every state it was found in. A claim's id is its
 * name up to the first {@code ~}. tmp/ and bookkeeping folders hold no items and are not read.
 */
public final class Census {

    public static final List<String> STATES = List.of("pending", "claimed", "done", "failed");

    private final Map<String, List<String>> states;

    private Census(Map<String, List<String>> states) {
        this.states = states;
    }

    /** One look at the folders, in the order items move (pending → claimed → done/failed). */
    public static Census of(Path spool) {
        Map<String, List<String>> states = new TreeMap<>();
        for (String state : STATES) {
            try (Stream<Path> files = Files.list(spool.resolve(state))) {
                files.map(f -> f.getFileName().toString()).forEach(name -> states
                        .computeIfAbsent(name.split("~", 2)[0], id -> new ArrayList<>()).add(state));
            } catch (NoSuchFileException e) {
                // not made yet: nothing in that state
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new Census(states);
    }

    /**
     * Looks until one census finds every id of {@code ids} in exactly one state and no id in two, and
     * answers it. A look at folders that items are moving between can see an item twice or miss it,
     * so one bad look proves nothing; a lost or doubled item stays so, and fails at the deadline.
     */
    public static Census awaitEachOnce(Path spool, Collection<String> ids, Duration deadline) {
        Census[] last = new Census[1];
        try {
            Await.until("each of " + ids.size() + " items in exactly one of " + STATES + " in " + spool, deadline,
                    () -> (last[0] = of(spool)).offenders(ids).isEmpty());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; not once (id=[states]): " + last[0].offenders(ids) + "; "
                    + last[0], e);
        }
        return last[0];
    }

    /** Ids of {@code ids} not in exactly one state, and any id in more than one, with where they were. */
    public Map<String, List<String>> offenders(Collection<String> ids) {
        Map<String, List<String>> bad = new TreeMap<>();
        ids.forEach(id -> {
            if (states(id).size() != 1) {
                bad.put(id, states(id));
            }
        });
        states.forEach((id, where) -> {
            if (where.size() > 1) {
                bad.put(id, where);
            }
        });
        return bad;
    }

    /** Every state {@code id} was found in; empty when it is nowhere. */
    public List<String> states(String id) {
        return states.getOrDefault(id, List.of());
    }

    /** Ids found in {@code state}. */
    public List<String> in(String state) {
        return states.entrySet().stream().filter(e -> e.getValue().contains(state)).map(Map.Entry::getKey).toList();
    }

    /** Every id found anywhere. */
    public Collection<String> ids() {
        return states.keySet();
    }

    @Override
    public String toString() {
        Map<String, Integer> counts = new TreeMap<>();
        STATES.forEach(state -> counts.put(state, in(state).size()));
        return "census " + counts;
    }
}
