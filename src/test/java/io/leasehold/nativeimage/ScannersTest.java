package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.ClassNode;

/**
 * The two native-image scans find what they exist to find, on fixture classes compiled with the tests:
 * so a green SerialisedTypesIT or RandomHoldersIT means "nothing to find", not "a scan that sees nothing".
 */
class ScannersTest {

    private static final String FIXTURE = "io.leasehold.nativeimage.fixture.";
    private static final List<ClassNode> FIXTURES =
            ClassFiles.inDirectory(Path.of("target", "test-classes", "io", "leasehold", "nativeimage", "fixture"));

    @Test
    void serialisedTypesAreFoundBehindResponsesTypedAnswersAndJackson() {
        SerialisedTypes found = new SerialisedTypes("io.leasehold.nativeimage.fixture").scan(FIXTURES);
        Map<String, String> known = found.known.stream()
                .collect(Collectors.toMap(SerialisedTypes.Site::type, SerialisedTypes.Site::where, (a, b) -> a));
        assertEquals(Set.of(FIXTURE + "Answers$Hidden", FIXTURE + "Answers$Shown", FIXTURE + "Answers$Read",
                FIXTURE + "Answers$WithGetter", FIXTURE + "Answers$Tree"), known.keySet(), "found " + known);
        assertEquals(List.of(new SerialisedTypes.Site("java.lang.Object", FIXTURE + "Answers.anything → writeValueAsString(…)"),
                new SerialisedTypes.Site("java.lang.Object", FIXTURE + "Answers.untyped (declared answer)")),
                found.opaque.stream().sorted(java.util.Comparator.comparing(SerialisedTypes.Site::where)).toList());

        Map<String, ClassNode> byName = FIXTURES.stream()
                .collect(Collectors.toMap(c -> ClassFiles.binaryName(c.name), c -> c));
        Map<String, String> needed = found.closure(known, byName);
        assertEquals("held by " + FIXTURE + "Answers$Hidden.inner", needed.get(FIXTURE + "Answers$Inner"));
        Map<String, String> throughGetter = found.closure(Map.of(FIXTURE + "Answers$WithGetter", "root"), byName);
        assertEquals("answered by " + FIXTURE + "Answers$WithGetter.getInner()",
                throughGetter.get(FIXTURE + "Answers$Inner"));
    }

    @Test
    void randomHoldersAreFoundAndLazyOnesAreNot() {
        Map<String, String> found = new RandomHolders(FIXTURES).find();
        assertEquals(Set.of(FIXTURE + "Randomness$Holds", FIXTURE + "Randomness$HoldsInside",
                FIXTURE + "Randomness$Draws", FIXTURE + "Randomness$HoldsGenerator"), found.keySet(), "found " + found);
        assertTrue(found.get(FIXTURE + "Randomness$Draws").contains("reads " + FIXTURE + "Randomness$Holds.RANDOM"),
                found.get(FIXTURE + "Randomness$Draws"));
    }
}
