package io.leasehold.command;

import io.leasehold.nats.BusSettings;
import io.leasehold.config.ConfigCheck;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.config.MappedConfig;
import io.leasehold.config.RunTimeSources;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.nats.NatsSettings;
import io.smallrye.config.DefaultValuesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * The service's configuration as command mode reads it: the same {@link LeaseholdConfig} mapping,
 * from the sources the service reads ({@link RunTimeSources}: {@code -D}, environment, {@code .env},
 * {@code config/application.properties}, the packaged {@code application.properties}, profiles with
 * {@code %prod} by default and {@code quarkus.profile}), only without booting Quarkus.
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
        return from(RunTimeSources.builder());
    }

    /** From {@code builder}'s sources (tests give their own in place of the process's environment). */
    static CommandConfig from(SmallRyeConfigBuilder builder) {
        SmallRyeConfig built = MappedConfig.build(builder);
        LeaseholdConfig mapped = built.getConfigMapping(LeaseholdConfig.class);
        ConfigCheck.requireForCommands(mapped, built);
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
        return ConfigRecords.leaseTiming(lease());
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
}
