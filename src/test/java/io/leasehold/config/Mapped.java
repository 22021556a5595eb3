package io.leasehold.config;

import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;

/**
 * The real {@link LeaseholdConfig} mapping over given properties, as Quarkus converts them (its duration
 * and memory-size converters), without Quarkus: for tests of the rules and of code that needs a setting.
 * {@link #defaults()} is the mapping's own defaults, the one place they are written.
 */
public final class Mapped {

    private Mapped() {
    }

    /** A builder over {@code properties} alone (no environment, no files), the mapping not yet added. */
    public static SmallRyeConfigBuilder builder(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500));
    }

    public static LeaseholdConfig of(Map<String, String> properties) {
        return builder(properties).withMapping(LeaseholdConfig.class).build().getConfigMapping(LeaseholdConfig.class);
    }

    /** Every setting at its {@code @WithDefault}. */
    public static LeaseholdConfig defaults() {
        return of(Map.of());
    }
}
