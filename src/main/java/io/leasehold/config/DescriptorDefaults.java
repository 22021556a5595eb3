package io.leasehold.config;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Defaults derived from the open-files limit at start ({@link DescriptorBudget}): the cap on HTTP
 * connections ({@code quarkus.http.limits.max-connections}), on uploads at once
 * ({@code leasehold.item.max-uploads}) and the kernel's queue of connections
 * ({@code quarkus.http.accept-backlog}). Registered in META-INF/services; below every file, environment
 * variable and -D setting, so an explicit value wins (and {@link ConfigCheck} holds it against the limit).
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
        Map<String, String> derived = Map.of(
                MAX_CONNECTIONS, Integer.toString(Math.max(1, budget.connections())),
                MAX_UPLOADS, Integer.toString(Math.max(1, budget.uploads())),
                BACKLOG, Integer.toString(budget.backlog()));
        return List.of(new PropertiesConfigSource(derived,
                "leasehold descriptor budget (open files " + openFiles.getAsLong() + ")", ORDINAL));
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
