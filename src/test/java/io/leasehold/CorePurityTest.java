package io.leasehold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The core holds the protocol's rules and arithmetic, and the lease its state machine; both must stay
 * readable and testable without any framework, so they may import only {@code java.*}, the core and
 * themselves. Read as text (no class loading, no Quarkus), so a framework import fails here by file and
 * line, before anyone has to notice it.
 */
class CorePurityTest {

    private static final Path SOURCES = Path.of("src/main/java/io/leasehold");
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;");
    /** A framework's name written out in code, which an import check alone would let through. */
    private static final Pattern QUALIFIED = Pattern.compile(
            "\\b(io\\.smallrye|io\\.quarkus|io\\.vertx|io\\.nats|io\\.micrometer|org\\.jboss|com\\.fasterxml|jakarta|javax)\\.");

    @ParameterizedTest
    @ValueSource(strings = {"core", "lease"})
    void importsOnlyJavaTheCoreAndItself(String pkg) throws IOException {
        List<Path> files = javaFiles(SOURCES.resolve(pkg));
        assertTrue(files.size() > 5, "expected the sources of " + pkg + " under " + SOURCES.toAbsolutePath()
                + ", found " + files);
        List<String> offences = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = IMPORT.matcher(lines.get(i));
                if (m.find() && !allowed(m.group(2), pkg)) {
                    offences.add(file.getFileName() + ":" + (i + 1) + " imports " + m.group(2));
                }
            }
            String code = withoutComments(String.join("\n", lines.stream().filter(l -> !IMPORT.matcher(l).find()).toList()));
            Matcher q = QUALIFIED.matcher(code);
            while (q.find()) {
                offences.add(file.getFileName() + " names " + q.group(1) + ".* in its code");
            }
        }
        assertEquals(List.of(), offences, "io.leasehold." + pkg + " may import only java.*, io.leasehold.core.* and "
                + "io.leasehold." + pkg + ".*");
    }

    private static boolean allowed(String name, String pkg) {
        return name.startsWith("java.") || name.startsWith("io.leasehold.core.") || name.startsWith("io.leasehold." + pkg + ".");
    }

    private static List<Path> javaFiles(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** Drops comments and string literals, so a Javadoc that mentions a framework is no offence. */
    private static String withoutComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ")
                .replaceAll("//[^\\n]*", " ")
                .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
    }
}
