package io.leasehold;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The packages import one way: no cycle among them, and every arrow between them is the one the diagram in
 * docs/architecture.md draws, so the map a newcomer reads is the code's. Read from the class files, so a
 * name written out in full counts as an import does.
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class PackageArrowsTest {

    private static final String ROOT = "io.leasehold";
    private static final Path DOC = Path.of("docs/architecture.md");
    /** One line of the diagram's arrows: {@code api → core, lease, spool}. */
    private static final Pattern ARROW = Pattern.compile("^\\s*([\\w.]+)\\s+→\\s+(.+?)\\s*$");

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(ROOT);
        assertTrue(classes.size() > 200, "expected leasehold's main classes, found " + classes.size());
    }

    @Test
    void noPackageImportsOneThatImportsItBack() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(classes);
    }

    /** The ports both backends implement name neither, nor what only one of them can speak of: files, NATS. */
    @Test
    void thePortsPackageNamesNeitherBackend() {
        noClasses().that().resideInAPackage(ROOT + ".spool")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".directory..", ROOT + ".jetstream..",
                        ROOT + ".nats..", "io.nats..", "java.nio.file..")
                .check(classes);
    }

    @Test
    void theDiagramInTheArchitectureDocDrawsEveryArrowAndNoOther() throws IOException {
        Map<String, Set<String>> drawn = drawn();
        Map<String, Set<String>> real = real();
        List<String> wrong = new ArrayList<>();
        real.forEach((from, tos) -> tos.stream().filter(to -> !drawn.getOrDefault(from, Set.of()).contains(to))
                .forEach(to -> wrong.add("not drawn: " + from + " → " + to + " (" + example(from, to) + ")")));
        drawn.forEach((from, tos) -> tos.stream().filter(to -> !real.getOrDefault(from, Set.of()).contains(to))
                .forEach(to -> wrong.add("drawn but not in the code: " + from + " → " + to)));
        assertEquals(List.of(), wrong, "docs/architecture.md, Packages and their arrows, must match the code;"
                + " the code's arrows are:\n" + lines(real));
    }

    @Test
    void theRowsOfTheDrawingPutEveryPackageAboveThoseItUses() throws IOException {
        Map<String, Set<String>> real = real();
        Map<String, Integer> row = new TreeMap<>();
        List<String> lines = between("<!-- rows -->", "<!-- /rows -->").lines()
                .filter(l -> !l.startsWith("```") && !l.isBlank()).toList();
        for (int i = 0; i < lines.size(); i++) {
            for (String word : lines.get(i).strip().split("\\s+")) {
                if (!real.containsKey(word)) {
                    break; // the row's description begins
                }
                row.put(word, lines.size() - i);
            }
        }
        assertEquals(real.keySet(), row.keySet(), "every package is on one row of the drawing");
        List<String> upward = new ArrayList<>();
        real.forEach((from, tos) -> tos.stream().filter(to -> row.get(to) >= row.get(from))
                .forEach(to -> upward.add(from + " → " + to)));
        assertEquals(List.of(), upward, "arrows that do not point to a lower row of the drawing in " + DOC);
    }

    /** An import the class files do not show (one a Javadoc alone uses, or none) is an arrow all the same. */
    @Test
    void theSourcesImportOnlyAlongTheDrawnArrows() throws IOException {
        Map<String, Set<String>> drawn = drawn();
        Pattern leasehold = Pattern.compile("^import (?:static )?" + Pattern.quote(ROOT) + "\\.((?:[a-z]\\w*\\.)*[a-z]\\w*)\\.[A-Z]",
                Pattern.MULTILINE);
        List<String> wrong = new ArrayList<>();
        Path sources = Path.of("src/main/java/io/leasehold");
        try (var files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String from = sources.relativize(file.getParent()).toString().replace('/', '.');
                Matcher m = leasehold.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (m.find()) {
                    String to = m.group(1);
                    if (!to.equals(from) && !drawn.getOrDefault(from, Set.of()).contains(to)) {
                        wrong.add(sources.relativize(file) + " imports " + ROOT + "." + to);
                    }
                }
            }
        }
        assertEquals(List.of(), wrong, "imports outside the arrows drawn in " + DOC);
    }

    /** Package → the packages its classes use, each leasehold package named relative to the root. */
    private static Map<String, Set<String>> real() {
        Map<String, Set<String>> arrows = new TreeMap<>();
        for (JavaClass c : classes) {
            if (c.getSimpleName().equals("package-info")) {
                continue; // a package's documentation, in the root package too: no code
            }
            String from = local(c.getPackageName());
            arrows.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getBaseComponentType().getPackageName();
                if (!local(target).isEmpty() && !local(target).equals(from)) {
                    arrows.get(from).add(local(target));
                }
            }
        }
        return arrows;
    }

    private static String example(String from, String to) {
        for (JavaClass c : classes) {
            if (local(c.getPackageName()).equals(from)) {
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    if (local(d.getTargetClass().getBaseComponentType().getPackageName()).equals(to)) {
                        return d.getDescription();
                    }
                }
            }
        }
        return "";
    }

    private static String between(String open, String close) throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int start = doc.indexOf(open);
        int end = doc.indexOf(close);
        assertTrue(start >= 0 && end > start, DOC + " has a part between " + open + " and " + close);
        return doc.substring(start + open.length(), end);
    }

    private static Map<String, Set<String>> drawn() throws IOException {
        Map<String, Set<String>> arrows = new TreeMap<>();
        for (String line : between("<!-- arrows -->", "<!-- /arrows -->").split("\n")) {
            Matcher m = ARROW.matcher(line);
            if (m.find()) {
                Set<String> tos = arrows.computeIfAbsent(m.group(1), k -> new TreeSet<>());
                for (String to : m.group(2).split(",")) {
                    if (!to.isBlank() && !to.strip().equals("(nothing)")) {
                        tos.add(to.strip());
                    }
                }
            }
        }
        return arrows;
    }

    /** The package relative to the root, or "" for one outside leasehold (java.*, a library's). */
    private static String local(String pkg) {
        if (pkg.equals(ROOT)) {
            return "(root)";
        }
        return pkg.startsWith(ROOT + ".") ? pkg.substring(ROOT.length() + 1) : "";
    }

    private static String lines(Map<String, Set<String>> arrows) {
        StringBuilder out = new StringBuilder();
        arrows.forEach((from, tos) -> out.append(from).append(" → ")
                .append(tos.isEmpty() ? "(nothing)" : String.join(", ", tos)).append('\n'));
        return out.toString();
    }
}
