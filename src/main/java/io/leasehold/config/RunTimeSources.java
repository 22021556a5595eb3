package io.leasehold.config;

import io.quarkus.runtime.configuration.AbstractConfigBuilder;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The configuration the service runs with, for the checks made before Quarkus boots (the pre-flight and
 * command mode): a builder set up by the class Quarkus writes at build time for its own boot, naming every
 * source, converter and default, and the values it read from the packaged {@code application.properties}.
 * In the packaged service nothing is discovered at run time: a native image carries no ServiceLoader registrations and no
 * {@code application.properties} resource, so a builder that looks for them there sees less than the jar
 * does (issue 23: the binary refused to start because the descriptor budget's source was never found).
 * docs/native.md says more.
 */
public final class RunTimeSources {

    /** Quarkus' generated runtime builder, the one its own boot applies (read in the jar and the binary alike). */
    static final String GENERATED = "io.quarkus.runtime.generated.RunTimeConfig";

    private RunTimeSources() {
    }

    /**
     * A builder with the service's own sources. Only a Quarkus build writes the generated class, so the
     * packaged jar and binary always have it (StartConfigIT); code run from a plain class path (the command
     * line's unit tests) gets the class path's own sources, discovered as Quarkus discovers them there.
     */
    public static SmallRyeConfigBuilder builder() {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder();
        try {
            builder.getClassLoader().loadClass(GENERATED);
        } catch (ClassNotFoundException e) {
            return ConfigUtils.configBuilder();
        }
        AbstractConfigBuilder.withCustomizer(builder, GENERATED);
        return builder;
    }
}
