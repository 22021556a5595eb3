package io.leasehold.config;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.DefaultValuesConfigSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Defaults derived from the open-files limit at start ({@link DescriptorBudget}): the cap on HTTP
 * connections ({@code quarkus.http.limits.max-connections}), on uploads at once
 * ({@code leasehold.item.max-uploads}) and the kernel's queue of connections
 * ({@code quarkus.http.accept-backlog}). Registered in META-INF/services, which Quarkus' build turns into a
 * source its generated runtime builder names ({@link RunTimeSources}). A key any other source sets (a file,
 * the environment, -D, the values a native build recorded from {@code application.properties}) is left to
 * that setting, whatever its ordinal, and {@link ConfigCheck} holds it against the limit. Not seen: files
 * named by {@code quarkus.config.locations}, which SmallRye reads after this source is made (docs/configuration.md,
 * Descriptor limit).
 */
public final class DescriptorDefaults implements ConfigSourceFactory {

    /** Below microprofile-config.properties (100) and application.properties (250); above built-in defaults. */
    static final int ORDINAL = 90;
    static final String MAX_CONNECTIONS = "quarkus.http.limits.max-connections";
    static final String MAX_UPLOADS = "leasehold.item.max-uploads";
    static final String BACKLOG = "quarkus.http.accept-backlog";
    static final String CONCURRENCY = "leasehold.drain.concurrency";

    private final Supplier<OptionalLong> limit;

    public DescriptorDefaults() {
        this(OpenFilesLimit::current);
    }

    DescriptorDefaults(Supplier<OptionalLong> limit) {
        this.limit = limit;
    }

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        OptionalLong openFiles = limit.get();
        if (openFiles.isEmpty()) {
            return List.of(); // unknown limit: nothing to derive from, the plain defaults stand
        }
        DescriptorBudget budget = new DescriptorBudget(openFiles.getAsLong(), concurrency(context));
        // At least 1, so the values parse: when nothing fits, ConfigCheck stops the start and says why.
        Map<String, String> derived = new HashMap<>();
        deriveUnlessSet(context, derived, MAX_CONNECTIONS, Math.max(1, budget.connections()));
        deriveUnlessSet(context, derived, MAX_UPLOADS, Math.max(1, budget.uploads()));
        deriveUnlessSet(context, derived, BACKLOG, budget.backlog());
        return List.of(new Derived(derived, "leasehold descriptor budget (open files " + openFiles.getAsLong() + ")"));
    }

    /**
     * A native binary holds the packaged application.properties as recorded values at ordinal 0, below this
     * source, where the jar reads the file at 250: asking whether anything sets the key keeps the two alike.
     */
    private static void deriveUnlessSet(ConfigSourceContext context, Map<String, String> derived, String key, int value) {
        ConfigValue set = context.getValue(key);
        if (set == null || set.getValue() == null || DefaultValuesConfigSource.NAME.equals(set.getSourceName())) {
            derived.put(key, Integer.toString(value));
        }
    }

    /**
     * Answers its keys without listing them: a Quarkus build records every runtime value its configuration
     * lists into the artifact, and the build machine's budget would then stand wherever the running machine's
     * limit cannot be read (and count as a setting above).
     */
    private static final class Derived implements ConfigSource {
        private final Map<String, String> values;
        private final String name;

        Derived(Map<String, String> values, String name) {
            this.values = Map.copyOf(values);
            this.name = name;
        }

        @Override
        public Set<String> getPropertyNames() {
            return Set.of();
        }

        @Override
        public String getValue(String propertyName) {
            return values.get(propertyName);
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public int getOrdinal() {
            return ORDINAL;
        }
    }

    private static int concurrency(ConfigSourceContext context) {
        ConfigValue value = context.getValue(CONCURRENCY);
        String text = value == null || value.getValue() == null ? LeaseholdConfig.DEFAULT_CONCURRENCY : value.getValue();
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return Integer.parseInt(LeaseholdConfig.DEFAULT_CONCURRENCY); // ConfigCheck names the bad value
        }
    }
}
