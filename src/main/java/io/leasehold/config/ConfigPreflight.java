package io.leasehold.config;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import io.quarkus.runtime.LaunchMode;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.PrintStream;
import java.util.Optional;

/**
 * The configuration checked before Quarkus boots, so a bad setting stops the start with one line on
 * stderr and exit status 1 while nothing has started: no HTTP listener, no spool folders, no NATS
 * connection. Quarkus' own boot would report a value of the wrong type over several lines and a broken
 * rule as a stack trace; here the mapping is built from the sources the boot will read
 * ({@link RunTimeSources}: {@code -D}, environment, {@code .env}, {@code config/application.properties}, the
 * packaged {@code application.properties}, profiles, the descriptor budget) and held to {@link ConfigCheck}'s
 * rules, in the JVM and the native binary alike.
 */
public final class ConfigPreflight {

    private ConfigPreflight() {
    }

    /**
     * In production (the jar, the native binary), exits with status 1 after one line when the
     * configuration breaks a rule. Dev mode and tests are left to the check in the boot, which reports a
     * broken rule in the same one line and lets dev mode wait for a fix instead of ending.
     */
    public static void stopIfInvalid() {
        if (LaunchMode.current() != LaunchMode.NORMAL || launchedByQuarkusTooling()) {
            return;
        }
        Optional<String> refused = refusalAtStart();
        if (refused.isPresent()) {
            PrintStream err = System.err;
            err.println(refused.get());
            err.flush();
            System.exit(1);
        }
    }

    /**
     * Dev mode and {@code @QuarkusMainTest} load the application with Quarkus' own class loader, and the
     * launch mode is still NORMAL when they call {@code main} (dev mode was seen to end on a pre-flight
     * exit); the jar and the native binary do not use that loader.
     */
    private static boolean launchedByQuarkusTooling() {
        ClassLoader loader = ConfigPreflight.class.getClassLoader();
        return loader != null && loader.getClass().getName().startsWith("io.quarkus.bootstrap.classloading.");
    }

    /** The line that stops this process's start; empty when its configuration passes. */
    static Optional<String> refusalAtStart() {
        return refusal(RunTimeSources.builder(), true);
    }

    /** The line that stops a start with {@code builder}'s sources; empty when they pass. */
    static Optional<String> refusal(SmallRyeConfigBuilder builder) {
        return refusal(builder, false);
    }

    /** As {@link #refusal(SmallRyeConfigBuilder)}, and with {@code lookAtPort} the HTTP port taken by another process. */
    private static Optional<String> refusal(SmallRyeConfigBuilder builder, boolean lookAtPort) {
        try {
            SmallRyeConfig built = MappedConfig.build(builder);
            ConfigCheck.require(built.getConfigMapping(LeaseholdConfig.class), built);
            return lookAtPort ? HttpPortInUse.refusal(built) : Optional.empty();
        } catch (InvalidConfigException e) {
            return Optional.of(e.line());
        }
    }
}
