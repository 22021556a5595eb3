package io.leasehold.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule for a unit test class that runs on the second thread, beside the one-at-a-time rest
 * ({@code @Execution(ExecutionMode.CONCURRENT)}, docs/testing.md): it starts no Quarkus application, sets
 * no system property (a Quarkus test starting meanwhile would read it) and captures no log category (it
 * would see the lines of the class beside it).
 */
class ConcurrentClassesShareNothingTest {

    private static final Path TESTS = Path.of("src", "test", "java");
    private static final Pattern MARKED =
            Pattern.compile("^@Execution\\(ExecutionMode\\.CONCURRENT\\)", Pattern.MULTILINE);
    private static final List<String> SHARED = List.of("@QuarkusTest", "System.setProperty", "System.clearProperty",
            "System.getProperties", "LogCapture", "Logger.getLogger(");

    @Test
    void aClassRunBesideOthersTouchesNothingTheyShare() throws IOException {
        List<String> concurrent = new ArrayList<>();
        List<String> breaking = new ArrayList<>();
        try (Stream<Path> files = Files.walk(TESTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                if (!MARKED.matcher(source).find()) {
                    continue;
                }
                concurrent.add(file.getFileName().toString());
                SHARED.stream().filter(source::contains).forEach(s -> breaking.add(file + " uses " + s));
            }
        }
        assertTrue(concurrent.size() >= 10, "the classes run beside the rest are found: " + concurrent);
        assertEquals(List.of(), breaking, "a class run beside the others must share nothing with them");
    }
}
