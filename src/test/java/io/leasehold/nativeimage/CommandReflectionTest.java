package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;

/**
 * picocli reads the command classes by reflection (their annotated fields, their constructors, the
 * converters and the version provider it makes): a native image keeps that only when told to, in the
 * reflection configuration picocli-codegen's annotation processor writes at compile time. Every picocli
 * class of the application, and every annotated field of one, must be in it, and the version's resource in
 * the resource configuration: otherwise {@code items list} in the native runner fails where the jar works.
 */
class CommandReflectionTest {

    private static final Path CLASSES = Path.of("target", "classes");
    private static final Path GENERATED = CLASSES.resolve("META-INF/native-image/picocli-generated");
    private static final Set<String> PICOCLI_FIELDS = Set.of("Lpicocli/CommandLine$Option;",
            "Lpicocli/CommandLine$Parameters;", "Lpicocli/CommandLine$Spec;", "Lpicocli/CommandLine$ParentCommand;",
            "Lpicocli/CommandLine$Mixin;", "Lpicocli/CommandLine$ArgGroup;", "Lpicocli/CommandLine$Unmatched;");
    private static final Set<String> MADE_BY_PICOCLI = Set.of("picocli/CommandLine$ITypeConverter",
            "picocli/CommandLine$IVersionProvider");

    @Test
    void everyPicocliClassAndFieldIsRegisteredForReflection() throws IOException {
        Map<String, Set<String>> registered = registeredFields();
        Map<String, String> missing = new TreeMap<>();
        int seen = 0;
        for (ClassNode c : ClassFiles.inDirectory(CLASSES)) {
            String name = ClassFiles.binaryName(c.name);
            Set<String> fields = annotatedFields(c);
            if (!hasCommand(c) && fields.isEmpty() && c.interfaces.stream().noneMatch(MADE_BY_PICOCLI::contains)) {
                continue;
            }
            seen++;
            if (!registered.containsKey(name)) {
                missing.put(name, "not registered");
            } else if (!registered.get(name).containsAll(fields)) {
                Set<String> left = new TreeSet<>(fields);
                left.removeAll(registered.get(name));
                missing.put(name, "fields " + left + " not registered");
            }
        }
        assertTrue(seen >= 10, "the scan finds the command classes (" + seen + ")");
        assertTrue(missing.isEmpty(), "picocli classes a native image would not keep: " + missing);
        assertTrue(registered.containsKey("picocli.CommandLine$AutoHelpMixin"), "--help and --version themselves");
    }

    @Test
    void theVersionResourceIsFilteredAndKeptInANativeImage() throws IOException {
        String version = Files.readString(CLASSES.resolve("io/leasehold/command/version.properties"));
        assertTrue(version.matches("(?s).*version=\\d+\\.\\d+\\.\\d+\\S*\\s*"), "filtered by Maven: " + version);
        assertFalse(version.contains("${"), version);
        JsonNode resources = new ObjectMapper().readTree(
                CLASSES.resolve("META-INF/native-image/io.leasehold/leasehold/resource-config.json").toFile());
        assertTrue(resources.toString().contains("io/leasehold/command/version.properties"), resources.toString());
    }

    private static Map<String, Set<String>> registeredFields() throws IOException {
        Map<String, Set<String>> out = new HashMap<>();
        for (JsonNode entry : new ObjectMapper().readTree(GENERATED.resolve("reflect-config.json").toFile())) {
            Set<String> fields = new TreeSet<>();
            entry.path("fields").forEach(f -> fields.add(f.get("name").asText()));
            if (entry.path("allDeclaredConstructors").asBoolean()) {
                out.put(entry.get("name").asText(), fields);
            }
        }
        return out;
    }

    private static boolean hasCommand(ClassNode c) {
        return annotations(c.visibleAnnotations).contains("Lpicocli/CommandLine$Command;");
    }

    private static Set<String> annotatedFields(ClassNode c) {
        Set<String> out = new TreeSet<>();
        for (FieldNode f : c.fields) {
            if (annotations(f.visibleAnnotations).stream().anyMatch(PICOCLI_FIELDS::contains)) {
                out.add(f.name);
            }
        }
        return out;
    }

    private static List<String> annotations(List<AnnotationNode> nodes) {
        return nodes == null ? List.of() : nodes.stream().map(a -> a.desc).toList();
    }
}
