package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The configuration tables against the mapping, so the docs cannot drift from the one place the defaults are
 * written ({@code @WithDefault} in {@link LeaseholdConfig}): in docs/configuration.md every key of the mapping
 * has a row, and every default is the one the row gives; the README's summary table names only keys of the
 * mapping, each with its default.
 */
class ConfigDocsTest {

    /** The full table: docs/configuration.md, its section "## Keys". */
    static final Path KEYS_PAGE = Path.of("docs", "configuration.md");
    static final String KEYS_HEADING = "## Keys";
    /** The summary of the keys people change most: README.md, its section "## Configuration". */
    static final Path README = Path.of("README.md");
    static final String SUMMARY_HEADING = "## Configuration";

    private static final Pattern CODE = Pattern.compile("`([^`]*)`");
    /** {@code ${VAR:}}: the variable's value, nothing when it is unset. */
    private static final Pattern EXPANSION = Pattern.compile("\\$\\{(\\w+):}");

    /** Each key of the mapping and its {@code @WithDefault} (empty: none). */
    static Map<String, Optional<String>> mappingKeys() {
        Map<String, Optional<String>> keys = new TreeMap<>();
        walk(LeaseholdConfig.class, "leasehold", keys);
        return keys;
    }

    private static void walk(Class<?> group, String prefix, Map<String, Optional<String>> keys) {
        for (Method m : group.getDeclaredMethods()) {
            if (m.isSynthetic() || java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            String key = m.isAnnotationPresent(WithParentName.class) ? prefix : prefix + "." + kebab(m.getName());
            Class<?> type = m.getReturnType();
            if (type == java.util.Map.class && m.getGenericReturnType() instanceof java.lang.reflect.ParameterizedType p
                    && p.getActualTypeArguments()[1] instanceof Class<?> value && value.getEnclosingClass() == LeaseholdConfig.class) {
                walk(value, key + ".\"<name>\"", keys); // a group per name: leasehold.schedules."<name>".cron
            } else if (type.isInterface() && type.getEnclosingClass() == LeaseholdConfig.class) {
                walk(type, key, keys);
            } else {
                keys.put(key, Optional.ofNullable(m.getAnnotation(WithDefault.class)).map(WithDefault::value));
            }
        }
    }

    private static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }

    /** The rows of docs/configuration.md's table of every key. */
    static Map<String, Row> keyRows() throws IOException {
        return tableRows(KEYS_PAGE, KEYS_HEADING);
    }

    /** The rows of the README's summary table. */
    static Map<String, Row> summaryRows() throws IOException {
        return tableRows(README, SUMMARY_HEADING);
    }

    /**
     * The rows of the key table in the section of {@code page} under {@code heading} (up to the next heading):
     * key → its default cell, then its meaning. A row may name several keys
     * ({@code `leasehold.nats.user` / `.password`}, a suffix replacing the last part) with their defaults
     * in the same order ({@code `2s` / `2s`}).
     */
    static Map<String, Row> tableRows(Path page, String heading) throws IOException {
        String text = Files.readString(page);
        int start = text.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, page + " has a section " + heading);
        int end = text.indexOf("\n#", start + 1);
        String section = text.substring(start, end < 0 ? text.length() : end);
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String line : section.lines().toList()) {
            String[] cells = line.split("\\|");
            if (cells.length < 4 || !cells[1].strip().startsWith("`")) {
                continue;
            }
            List<String> names = codes(cells[1]);
            String[] defaults = cells[2].split(" / ");
            String first = names.get(0);
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                String key = name.startsWith(".") ? first.substring(0, first.lastIndexOf('.')) + name : name;
                rows.put(key, new Row((defaults.length == names.size() ? defaults[i] : cells[2]).strip(), cells[3]));
            }
        }
        return rows;
    }

    record Row(String defaultCell, String meaning) {
    }

    private static List<String> codes(String cell) {
        List<String> found = new ArrayList<>();
        Matcher m = CODE.matcher(cell);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void everyKeyOfTheMappingHasARowAndItsDefaultIsTheRowsDefault() throws IOException {
        Map<String, Row> rows = keyRows();
        Map<String, Optional<String>> keys = mappingKeys();
        assertTrue(keys.size() > 40, "the walk found the mapping's keys: " + keys.keySet());
        List<String> wrong = new ArrayList<>();
        keys.forEach((key, declared) -> {
            Row row = rows.get(key);
            if (row == null) {
                wrong.add(key + ": no row in " + KEYS_PAGE + "'s configuration table");
            } else if (declared.isPresent() && !documents(row, declared.get())) {
                wrong.add(key + ": " + KEYS_PAGE + " says " + row.defaultCell() + ", the mapping's default is `" + declared.get() + "`");
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyLeaseholdRowOfTheTableIsAKeyOfTheMapping() throws IOException {
        Map<String, Optional<String>> keys = mappingKeys();
        List<String> unknown = keyRows().keySet().stream()
                .filter(k -> k.startsWith("leasehold.") && !keys.containsKey(k)).toList();
        assertEquals(List.of(), unknown, "rows of keys the mapping does not have");
    }

    @Test
    void everyKeyOfTheReadmeSummaryIsAKeyOfTheMappingWithItsDefault() throws IOException {
        Map<String, Row> rows = summaryRows();
        Map<String, Optional<String>> keys = mappingKeys();
        assertTrue(rows.size() >= 8, "the summary table was found and read: " + rows.keySet());
        List<String> wrong = new ArrayList<>();
        rows.forEach((key, row) -> {
            Optional<String> declared = keys.get(key);
            if (declared == null) {
                wrong.add(key + ": in " + README + "'s summary table, not a key of the mapping");
            } else if (declared.isPresent() && !documents(row, declared.get())) {
                wrong.add(key + ": " + README + " says " + row.defaultCell() + ", the mapping's default is `" + declared.get() + "`");
            } else if (declared.isEmpty() && !row.defaultCell().startsWith("—")) {
                wrong.add(key + ": " + README + " says " + row.defaultCell() + ", the mapping has no default (—)");
            }
        });
        assertEquals(List.of(), wrong);
    }

    /**
     * The row gives the default as its first code span; a default that expands a variable to nothing when
     * unset ({@code ${K_SINK:}}) is documented as {@code ${K_SINK}}, or as "—" in a row that names the variable.
     */
    static boolean documents(Row row, String declared) {
        List<String> codes = codes(row.defaultCell());
        Matcher expansion = EXPANSION.matcher(declared);
        if (expansion.matches()) {
            String variable = expansion.group(1);
            return (!codes.isEmpty() && codes.get(0).equals("${" + variable + "}")) || (row.defaultCell().startsWith("—") && row.meaning().contains(variable));
        }
        return !codes.isEmpty() && codes.get(0).equals(declared);
    }
}
