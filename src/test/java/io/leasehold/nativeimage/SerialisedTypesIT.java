package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.ClassNode;

/**
 * Every type the service turns into JSON is registered for reflection in what Quarkus hands to a
 * native build. A native image keeps no constructors or accessors that are not registered, and Jackson
 * then fails at run time (issue 7: {@code POST /items} and every error answer were 500 in the binary,
 * because {@code Response.entity(...)} hides the type from Quarkus). Registration comes from a typed
 * answer ({@code Uni<ItemView>}, {@code RestResponse<T>}), {@code @RegisterForReflection}, or a
 * reflection configuration — this test does not care which, only that Quarkus' own output has it.
 */
class SerialisedTypesIT {

    /**
     * Places where the code hands Jackson something whose type the code does not show, and what does
     * flow there. A new opaque place fails the test until it is written down here.
     */
    private static final Map<String, Set<String>> OPAQUE = Map.of(
            // lease status: a map of plain values plus the holder record; items and spool commands: the API's
            // own answers (an item, a list of them, created, retried, purged, the spool's counts)
            "io.leasehold.command.CommandJson.write → writeValueAsString(…)", Set.of("io.leasehold.lease.Holder",
                    "io.leasehold.spool.ItemView", "io.leasehold.wire.Created",
                    "io.leasehold.wire.Retried", "io.leasehold.wire.Purged",
                    "io.leasehold.wire.SpoolView", "io.leasehold.wire.DrainState"),
            // GET /items: a page of items, built with its Link header
            "io.leasehold.api.ItemPages.lambda$page$2 → ok(…)", Set.of("io.leasehold.spool.ItemView"));

    @Test
    void everySerialisedTypeIsRegisteredForReflection() {
        List<ClassNode> classes = ClassFiles.inDirectory(Path.of("target", "classes"));
        SerialisedTypes found = new SerialisedTypes("io.leasehold").scan(classes);

        // Counted: a second opaque call in a place already written down is a new place to look at too.
        Map<String, Long> opaque = found.opaque.stream().collect(Collectors.groupingBy(SerialisedTypes.Site::where,
                TreeMap::new, Collectors.counting()));
        Map<String, Long> declared = new TreeMap<>();
        OPAQUE.keySet().forEach(where -> declared.put(where, 1L));
        assertEquals(declared, opaque, "places that serialise a value of unknown type " + found.opaque
                + ": give them a concrete type, or say in OPAQUE what flows there");

        Map<String, String> roots = new LinkedHashMap<>();
        found.known.forEach(site -> roots.putIfAbsent(site.type(), site.where()));
        OPAQUE.forEach((where, types) -> types.forEach(t -> roots.putIfAbsent(t, where)));
        // The scan itself must see the answers it exists for: an error body, a typed answer, the lease value.
        assertTrue(roots.keySet().containsAll(Set.of("io.leasehold.api.ApiError", "io.leasehold.spool.ItemView",
                "io.leasehold.lease.LeaseRecord")), "the scan found " + roots.keySet());

        Map<String, ClassNode> byName = classes.stream()
                .collect(Collectors.toMap(c -> ClassFiles.binaryName(c.name), c -> c));
        Map<String, String> needed = found.closure(roots, byName);
        Map<String, Set<String>> registered = NativeSources.load().reflection();

        Map<String, String> missing = new TreeMap<>();
        needed.forEach((type, where) -> {
            Set<String> flags = registered.getOrDefault(type, Set.of());
            boolean constructors = flags.contains("allDeclaredConstructors") || flags.contains("allPublicConstructors");
            boolean methods = flags.contains("allDeclaredMethods") || flags.contains("allPublicMethods");
            boolean fields = flags.contains("allDeclaredFields") || flags.contains("allPublicFields");
            if (!(constructors && methods && fields)) {
                missing.put(type, where + (flags.isEmpty() ? "; not registered at all" : "; registered only " + flags));
            }
        });
        assertTrue(missing.isEmpty(), "serialised but not registered for reflection in a native build "
                + "(answer it typed, or annotate it @RegisterForReflection): " + missing);
    }
}
