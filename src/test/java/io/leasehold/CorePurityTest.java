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
import org.junit.jupiter.api.Test;

/**
 * The core holds the protocol's rules and arithmetic; it must stay readable and testable without any
 * framework, so it may import only {@code java.*} and itself. Read as text (no class loading, no
 * Quarkus), so a framework import fails here by file and line, before anyone has to notice it.
 */
class CorePurityTest {

    private static final Path CORE = Path.of("src/main/java/io/leasehold/core");
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;");
    /** A framework's name written out in code, which an import check alone would let through. */
    private static final Pattern QUALIFIED = Pattern.compile(
            "\\b(io\\.smallrye|io\\.quarkus|io\\.vertx|io\\.nats|io\\.micrometer|org\\.jboss|com\\.fasterxml|jakarta|javax)\\.");

    @Test
    void coreImportsOnlyJavaAndItself() throws IOException {
        List<Path> files = javaFiles();
        assertTrue(files.size() > 5, "expected the core's sources under " + CORE.toAbsolutePath() + ", found " + files);
        List<String> offences = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = IMPORT.matcher(lines.get(i));
                if (m.find() && !allowed(m.group(2))) {
                    offences.add(file.getFileName() + ":" + (i + 1) + " imports " + m.group(2));
                }
            }
            String code = withoutComments(String.join("\n", lines.stream().filter(l -> !IMPORT.matcher(l).find()).toList()));
            Matcher q = QUALIFIED.matcher(code);
            while (q.find()) {
                offences.add(file.getFileName() + " names " + q.group(1) + ".* in its code");
            }
        }
        assertEquals(List.of(), offences, "io.leasehold.core may import only java.* and io.leasehold.core.*");
    }

    private static boolean allowed(String name) {
        return name.startsWith("java.") || name.startsWith("io.leasehold.core.");
    }

    private static List<Path> javaFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(CORE)) {
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
