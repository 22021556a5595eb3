package io.leasehold.config;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the {@link LeaseholdConfig} mapping from a builder's sources, outside Quarkus' own boot (the
 * service's pre-flight and command mode), turning SmallRye's refusals (a value of the wrong type, a
 * {@code ${...}} that cannot be expanded) into one line naming the key.
 */
public final class MappedConfig {

    private MappedConfig() {
    }

    /** The built config, its mapping readable by {@code getConfigMapping(LeaseholdConfig.class)}. */
    public static SmallRyeConfig build(SmallRyeConfigBuilder builder) {
        try {
            // Unknown leasehold.* keys are refused, as the boot refuses them: a misspelt key is a mistake to name.
            return builder.withMapping(LeaseholdConfig.class).build();
        } catch (ConfigValidationException e) {
            List<String> problems = new ArrayList<>();
            for (int i = 0; i < e.getProblemCount(); i++) {
                problems.add(unknownKey(oneLine(e.getProblem(i).getMessage())));
            }
            throw new InvalidConfigException(String.join("; ", problems));
        } catch (NoSuchElementException | IllegalArgumentException e) {
            throw new InvalidConfigException(oneLine(e.getMessage())); // e.g. a ${...} that cannot be expanded
        }
    }

    /**
     * SmallRye's messages ("java.lang.IllegalArgumentException: SRCFG00039: The config property
     * leasehold.x with the config value ..."), possibly over several lines, as one line.
     */
    static String oneLine(String message) {
        return String.valueOf(message).replaceAll("(?:[\\w.$]+(?:Exception|Error): )+", "")
                .replaceAll("SRCFG\\d+: ", "").replaceAll("\\s*\\R\\s*", " ").strip()
                .replaceAll("The config property (\\S+) with the config value (\".*?\") threw an Exception whilst being"
                        + " converted ", "$1 cannot be $2: ")
                .replaceAll("^Could not expand value (\\S+) in property (\\S+)$", "$2 cannot be expanded: nothing sets $1")
                .replaceAll(": Invalid duration: .*$", ": not a duration (write it as 500ms, 30s, 5m, 2h or PT5M)");
    }

    private static final Pattern UNMAPPED = Pattern.compile("(\\S+) in (.+?) does not map to any root");

    /**
     * SmallRye's "leasehold.x in SysPropConfigSource does not map to any root" as the operator can act on it:
     * where the key was set, and the key it was most likely meant to be.
     */
    static String unknownKey(String problem) {
        Matcher m = UNMAPPED.matcher(problem);
        if (!m.matches()) {
            return problem;
        }
        String key = m.group(1);
        String where = where(m.group(2), key);
        return KeySuggestion.closest(key)
                .map(near -> key + " is not a setting (" + where + "): did you mean " + near + "?")
                .orElse(key + " is not a setting (" + where + "): every key is in docs/configuration.md");
    }

    private static String where(String source, String key) {
        if (source.startsWith("SysPropConfigSource")) {
            return "set by -D" + key;
        }
        if (source.startsWith("EnvConfigSource")) {
            return "set in the environment";
        }
        Matcher file = Pattern.compile("\\w+\\[source=(?:file:|jar:file:)?(.+?)](?::(\\d+))?").matcher(source);
        if (!file.matches()) {
            return "set in " + source;
        }
        return "set in " + file.group(1) + (file.group(2) == null ? "" : " line " + file.group(2));
    }
}
