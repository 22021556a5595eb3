package io.leasehold.command;

import io.leasehold.app.BusSettings;
import io.leasehold.config.ConfigCheck;
import io.leasehold.config.ConfigCheck.InvalidConfigException;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.nats.NatsSettings;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.DefaultValuesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * The service's configuration as command mode reads it: the same {@link LeaseholdConfig} mapping,
 * built the way Quarkus builds it ({@link ConfigUtils#configBuilder()}: {@code -D}, environment,
 * {@code .env}, {@code config/application.properties}, the packaged {@code application.properties},
 * profiles with {@code %prod} by default and {@code quarkus.profile}), only without booting Quarkus.
 * The defaults are the mapping's; the keys command mode uses are checked by the service's own
 * {@link ConfigCheck} rules. Any problem is one line naming its key.
 */
public final class CommandConfig {

    private static final String SPOOL_DIR = "leasehold.spool.dir";

    private final LeaseholdConfig config;
    private final boolean spoolDirSet;

    private CommandConfig(LeaseholdConfig config, boolean spoolDirSet) {
        this.config = config;
        this.spoolDirSet = spoolDirSet;
    }

    public static CommandConfig fromSystem() {
        return from(ConfigUtils.configBuilder());
    }

    /** As the service, which warns of unknown keys at most: a key command mode does not know is no error. */
    private static final String VALIDATE_UNKNOWN = "quarkus.config.mapping.validate-unknown";

    /** From {@code builder}'s sources (tests give their own in place of the process's environment). */
    static CommandConfig from(SmallRyeConfigBuilder builder) {
        SmallRyeConfig built;
        try {
            built = builder.withDefaultValue(VALIDATE_UNKNOWN, "false").withMapping(LeaseholdConfig.class).build();
        } catch (ConfigValidationException e) {
            List<String> problems = new ArrayList<>();
            for (int i = 0; i < e.getProblemCount(); i++) {
                problems.add(oneLine(e.getProblem(i).getMessage()));
            }
            throw new InvalidConfigException(String.join("; ", problems));
        } catch (NoSuchElementException | IllegalArgumentException e) {
            throw new InvalidConfigException(oneLine(e.getMessage())); // e.g. a ${...} that cannot be expanded
        }
        LeaseholdConfig mapped = built.getConfigMapping(LeaseholdConfig.class);
        ConfigCheck.requireForCommands(mapped);
        ConfigValue dir = built.getConfigValue(SPOOL_DIR);
        return new CommandConfig(mapped, !DefaultValuesConfigSource.NAME.equals(dir.getSourceName()));
    }

    /** The whole mapping, for commands that open the spool as the service does (its kind, bounds and claim terms). */
    public LeaseholdConfig mapped() {
        return config;
    }

    public LeaseholdConfig.LeaseConfig lease() {
        return config.lease();
    }

    /** The lease timing; valid, as the check passed. */
    public LeaseTiming timing() {
        return new LeaseTiming(lease().duration(), lease().renewEvery(), lease().renewDeadline());
    }

    /** How to reach the bus, when a URL is set (otherwise no-bus). */
    public Optional<NatsSettings> nats(String connectionName) {
        return BusSettings.of(config.nats(), connectionName);
    }

    public Path spoolDir() {
        return Path.of(config.spool().dir());
    }

    /** Whether {@code leasehold.spool.dir} was given by any source, rather than left at the mapping's default. */
    public boolean spoolDirSet() {
        return spoolDirSet;
    }

    /**
     * SmallRye's messages ("java.lang.IllegalArgumentException: SRCFG00039: The config property
     * leasehold.x with the config value ..."), possibly over several lines, as one line.
     */
    private static String oneLine(String message) {
        return String.valueOf(message).replaceAll("(?:[\\w.$]+(?:Exception|Error): )+", "")
                .replaceAll("SRCFG\\d+: ", "").replaceAll("\\s*\\R\\s*", " ").strip()
                .replaceAll("The config property (\\S+) with the config value (\".*?\") threw an Exception whilst being"
                        + " converted ", "$1 cannot be $2: ");
    }
}
