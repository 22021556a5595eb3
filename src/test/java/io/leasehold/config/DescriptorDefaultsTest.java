package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
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
