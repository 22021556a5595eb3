package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The derived defaults in a config built as Quarkus builds it, with application.properties' ordinal
 * (250) for the explicit settings: derived values fill in, explicit ones win.
 */
class DescriptorDefaultsTest {

    private static SmallRyeConfig config(OptionalLong limit, Map<String, String> explicit) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withSources(new PropertiesConfigSource(explicit, "application.properties", 250))
                .withSources(new DescriptorDefaults(() -> limit))
                .withMapping(LeaseholdConfig.class).build();
    }

    private static Optional<Integer> maxConnections(SmallRyeConfig config) {
        return config.getOptionalValue(DescriptorDefaults.MAX_CONNECTIONS, Integer.class);
    }

    @Test
    void unsetTheCapsComeFromTheLimitAndTheConcurrency() {
        SmallRyeConfig config = config(OptionalLong.of(128), Map.of("leasehold.drain.concurrency", "2"));
        assertEquals(Optional.of(16), maxConnections(config), "(128 - 64 - 8 × 2) / 3");
        assertEquals(16, config.getConfigMapping(LeaseholdConfig.class).item().maxUploads());
        assertEquals(Optional.of(4), config.getOptionalValue(DescriptorDefaults.BACKLOG, Integer.class));
    }

    @Test
    void withDefaultConcurrencyAndPlentyOfDescriptorsUploadsStayAt64() {
        SmallRyeConfig config = config(OptionalLong.of(20_000), Map.of());
        assertEquals(Optional.of(6634), maxConnections(config), "(20000 - 64 - 8 × 4) / 3");
        assertEquals(64, config.getConfigMapping(LeaseholdConfig.class).item().maxUploads());
    }

    @Test
    void explicitSettingsWin() {
        SmallRyeConfig config = config(OptionalLong.of(128), Map.of(DescriptorDefaults.MAX_CONNECTIONS, "12",
                DescriptorDefaults.MAX_UPLOADS, "5"));
        assertEquals(Optional.of(12), maxConnections(config));
        assertEquals(Optional.of(2), config.getOptionalValue(DescriptorDefaults.BACKLOG, Integer.class),
                "still the budget's (10 connections / 4): derived from the limit, not from the explicit cap");
        assertEquals(5, config.getConfigMapping(LeaseholdConfig.class).item().maxUploads());
    }

    /** A native binary's recorded application.properties values sit at ordinal 0, below the budget's 90. */
    @Test
    void aKeySetBelowTheBudgetsOrdinalIsStillTheSetting() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withSources(new PropertiesConfigSource(Map.of(DescriptorDefaults.MAX_CONNECTIONS, "12",
                        DescriptorDefaults.BACKLOG, "7"), "Runtime Values", 0))
                .withSources(new DescriptorDefaults(() -> OptionalLong.of(128)))
                .withMapping(LeaseholdConfig.class).build();
        assertEquals(Optional.of(12), maxConnections(config));
        assertEquals(Optional.of(7), config.getOptionalValue(DescriptorDefaults.BACKLOG, Integer.class));
        assertEquals(10, config.getConfigMapping(LeaseholdConfig.class).item().maxUploads(),
                "unset, so derived: (128 - 64 - 8 × 4) / 3, not the plain default 64");
    }

    /** A Quarkus build records every listed runtime value into the artifact: the build machine's budget must not be. */
    @Test
    void theDerivedValuesAreAnsweredButNotListed() {
        SmallRyeConfig config = config(OptionalLong.of(20_000), Map.of("leasehold.drain.concurrency", "4"));
        assertEquals(Optional.of(6634), maxConnections(config));
        List<String> listed = new ArrayList<>();
        config.getPropertyNames().forEach(listed::add);
        assertTrue(listed.contains("leasehold.drain.concurrency"), "a set key is listed: " + listed);
        assertFalse(listed.contains(DescriptorDefaults.MAX_CONNECTIONS), listed.toString());
        assertFalse(listed.contains(DescriptorDefaults.BACKLOG), listed.toString());
    }

    @Test
    void anUnknownLimitDerivesNothing() {
        SmallRyeConfig config = config(OptionalLong.empty(), Map.of());
        assertEquals(Optional.empty(), maxConnections(config), "no cap");
        assertEquals(Optional.empty(), config.getOptionalValue(DescriptorDefaults.BACKLOG, Integer.class));
        assertEquals(64, config.getConfigMapping(LeaseholdConfig.class).item().maxUploads(), "the plain default");
    }

    @Test
    void whenNothingFitsTheValuesStillParseForConfigCheckToRefuse() {
        SmallRyeConfig config = config(OptionalLong.of(50), Map.of());
        assertEquals(Optional.of(1), maxConnections(config));
        assertEquals(1, config.getConfigMapping(LeaseholdConfig.class).item().maxUploads());
    }
}
