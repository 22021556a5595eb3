package io.leasehold.config;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.eclipse.microprofile.config.Config;

/**
 * The raw values the mapping reads too leniently. Every {@code leasehold.*} value whose {@code ${...}}
 * cannot be expanded stops the start: the mapping reads such a value of an optional key as unset,
 * silently, so {@code leasehold.api.token=abc${NOPE}} would turn the token check off, and a password or a
 * command would go missing under another key's complaint. And a boolean must say yes or no: the mapping
 * reads any other word ({@code leasehold.drain.auto=ture}) as false.
 */
final class Expansions {

    /** The mapping's boolean keys. */
    private static final List<String> BOOLEANS = List.of("leasehold.drain.auto");
    /** And each schedule's. */
    private static final java.util.regex.Pattern SCHEDULE_BOOLEAN = java.util.regex.Pattern.compile(
            "leasehold\\.schedules\\.[^.]+\\.paused|leasehold\\.schedules\\.\"[^\"]+\"\\.paused");
    /** What SmallRye's boolean converter reads as true, and their opposites. */
    private static final java.util.Set<String> BOOLEAN_WORDS = java.util.Set.of("true", "false", "yes", "no", "on",
            "off", "1", "0", "y", "n");

    private Expansions() {
    }

    static void require(Config config) {
        List<String> problems = new ArrayList<>();
        for (String name : config.getPropertyNames()) {
            if (!name.startsWith("leasehold.")) {
                continue;
            }
            try {
                config.getValue(name, String.class); // getOptionalValue answers empty here, as the mapping does
            } catch (NoSuchElementException e) {
                if (String.valueOf(e.getMessage()).contains("expand")) { // not a value set empty: that is unset
                    problems.add(MappedConfig.oneLine(e.getMessage()));
                }
            }
        }
        List<String> booleans = new ArrayList<>(BOOLEANS);
        for (String name : config.getPropertyNames()) {
            if (SCHEDULE_BOOLEAN.matcher(name).matches()) {
                booleans.add(name);
            }
        }
        for (String key : booleans) {
            String raw = config.getConfigValue(key).getValue();
            if (raw != null && !BOOLEAN_WORDS.contains(raw.strip().toLowerCase(java.util.Locale.ROOT))) {
                problems.add(key + " must be true or false, got '" + raw + "'");
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(String.join("; ", problems));
        }
    }
}
