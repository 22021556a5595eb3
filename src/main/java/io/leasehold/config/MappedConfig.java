package io.leasehold.config;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

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
                problems.add(oneLine(e.getProblem(i).getMessage()));
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
                .replaceAll("^Could not expand value (\\S+) in property (\\S+)$", "$2 cannot be expanded: nothing sets $1");
    }
}
