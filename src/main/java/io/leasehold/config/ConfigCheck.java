package io.leasehold.config;

import io.leasehold.core.DurationText;
import io.quarkus.runtime.configuration.ConfigurationException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.OptionalLong;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * Checks the configuration once, before anything starts, and names the key of every problem, so a
 * bad setting stops the start with one line the operator can act on (exit status 1). A value's own
 * rule lives in the settings record it becomes ({@link ConfigRecords}); here are the rest: settings
 * no record holds, rules across keys, and the process's facts ({@link RunTimeFit}).
 */
public final class ConfigCheck {

    /**
     * The floor of the periodic work's periods (polls, recounts, claim and lease renewals): shorter would
     * spend the spool's disk and the bus many times a second for nothing the protocol promises (docs/protocol.md).
     */
    static final Duration TICK_RESOLUTION = Duration.ofSeconds(1);

    private ConfigCheck() {
    }

    public static void require(LeaseholdConfig config) {
        require(config, ConfigProvider.getConfig());
    }

    /** As {@link #require(LeaseholdConfig)}, from inside Quarkus' boot: see {@link InvalidConfigException#atStart()}. */
    public static void requireAtStart(LeaseholdConfig config) {
        try {
            require(config);
        } catch (InvalidConfigException e) {
            throw e.atStart();
        }
    }

    /** As {@link #require(LeaseholdConfig)}, with the worker pool and connection cap read from {@code quarkus}. */
    public static void require(LeaseholdConfig config, Config quarkus) {
        Expansions.require(quarkus); // before the mapping's values are trusted: an Optional left empty may be one
        int workers;
        OptionalInt connections;
        try {
            workers = RunTimeFit.workerThreads(quarkus);
            connections = RunTimeFit.maxConnections(quarkus);
        } catch (IllegalArgumentException e) { // Quarkus' own key, of the wrong type: named as the mapping's are
            throw new InvalidConfigException(MappedConfig.oneLine(e.getMessage()));
        }
        Problems problems = new Problems(written(quarkus));
        ScheduleVariables.check(problems, quarkus);
        OidcRules.check(problems, quarkus);
        require(config, workers, OpenFilesLimit.current(), connections, problems);
    }

    /** Each key's value as its source writes it, so a refusal quotes {@code -5s} and not {@code PT-5S}. */
    private static Function<String, Optional<String>> written(Config source) {
        return key -> {
            ConfigValue value = source.getConfigValue(key);
            return Optional.ofNullable(value == null ? null : value.getRawValue());
        };
    }

    /** As {@link #require(LeaseholdConfig)}, for a worker pool of {@code workerThreads} threads. */
    public static void require(LeaseholdConfig config, int workerThreads) {
        require(config, workerThreads, OpenFilesLimit.current(), RunTimeFit.maxConnections(ConfigProvider.getConfig()));
    }

    /**
     * As {@link #require(LeaseholdConfig, int)}, for a process allowed {@code openFiles} descriptors (empty:
     * not known) whose HTTP server takes at most {@code maxConnections} connections (empty: no cap).
     */
    public static void require(LeaseholdConfig config, int workerThreads, OptionalLong openFiles,
            OptionalInt maxConnections) {
        require(config, workerThreads, openFiles, maxConnections, new Problems());
    }

    private static void require(LeaseholdConfig config, int workerThreads, OptionalLong openFiles,
            OptionalInt maxConnections, Problems problems) {
        all(problems, config);
        RunTimeFit.uploadsFit(problems, config, workerThreads);
        openFiles.ifPresent(limit -> RunTimeFit.connectionsFit(problems, config, limit, maxConnections));
        problems.stopIfAny();
    }

    /**
     * The checks of the keys command mode uses: the spool (its directory and kind, the JetStream spool's
     * buckets, tmp/'s housekeeping, the payload bound, the claim terms), the lease and the bus. It runs no drain and no
     * API, so their keys are not its business.
     */
    /** As {@link #requireForCommands(LeaseholdConfig)}, refusing first any {@code ${...}} of {@code raw} that cannot be expanded. */
    public static void requireForCommands(LeaseholdConfig config, Config raw) {
        Expansions.require(raw);
        Problems problems = new Problems(written(raw));
        ScheduleVariables.check(problems, raw);
        requireForCommands(config, problems);
    }

    public static void requireForCommands(LeaseholdConfig config) {
        requireForCommands(config, new Problems());
    }

    private static void requireForCommands(LeaseholdConfig config, Problems problems) {
        spool(problems, config);
        maxBytes(problems, config);
        problems.built(() -> ConfigRecords.leaseTerms(config)); // the claim terms, for commands that work on items
        RemoteRules.lease(problems, config.lease());
        RemoteRules.nats(problems, config);
        schedules(problems, config);
        problems.stopIfAny();
    }

    /** A period of periodic work: at least {@link #TICK_RESOLUTION}. */
    static void tickable(Problems problems, String key, Duration period) {
        if (period.compareTo(TICK_RESOLUTION) < 0) {
            problems.add(key, "must be at least 1s, got " + DurationText.of(period));
        }
    }

    private static void spool(Problems problems, LeaseholdConfig c) {
        if (c.spool().dir().isBlank()) {
            problems.add("leasehold.spool.dir", "must name a directory");
        }
        String kind = c.spool().kind();
        if (kind.equals("jetstream")) {
            RemoteRules.jetStreamSpool(problems, c);
        } else if (!kind.equals("directory")) {
            problems.add("leasehold.spool.kind", "must be 'directory' or 'jetstream', got '" + kind + "'");
        }
        Duration tmpMaxAge = c.spool().tmpMaxAge();
        if (tmpMaxAge.compareTo(Duration.ofMinutes(1)) < 0) {
            // Shorter could remove an upload still streaming in, or a reason being written.
            problems.add("leasehold.spool.tmp-max-age", "must be at least 1m, got " + DurationText.of(tmpMaxAge));
        } else if (tmpMaxAge.compareTo(c.item().uploadTimeout().multipliedBy(2)) < 0) {
            // A JetStream batch still staging at half of it is refused (housekeeping may take it for dead).
            problems.add("leasehold.spool.tmp-max-age", "must be at least twice leasehold.item.upload-timeout ("
                    + DurationText.of(c.item().uploadTimeout()) + "), got " + DurationText.of(tmpMaxAge));
        }
    }

    private static void all(Problems problems, LeaseholdConfig c) {
        spool(problems, c);
        problems.atLeast("leasehold.metrics.stuck-after-leases", 1, c.metrics().stuckAfterLeases());
        tickable(problems, "leasehold.spool.recount-every", c.spool().recountEvery());
        tickable(problems, "leasehold.spool.housekeeping-every", c.spool().housekeepingEvery());
        notNegative(problems, "leasehold.spool.done-max-age", c.spool().doneMaxAge(), "done");
        notNegative(problems, "leasehold.spool.failed-max-age", c.spool().failedMaxAge(), "failed");
        problems.built(() -> ConfigRecords.leaseTerms(c)).ifPresent(terms -> {
            if (terms.renewEvery().compareTo(TICK_RESOLUTION) < 0) {
                problems.add("leasehold.claim.lease", "divided by leasehold.claim.renewals-per-lease must be at least"
                        + " 1s, got " + DurationText.of(terms.lease()) + " / " + terms.renewalsPerLease());
            }
        });
        var backoff = problems.built(() -> ConfigRecords.backoff(c));
        // Built with a refused backoff left out (null), so its other keys are still named in the same line.
        problems.built(() -> ConfigRecords.drainSettings(c, backoff.orElse(null)))
                .ifPresent(drain -> tickable(problems, "leasehold.drain.poll-interval", drain.pollInterval()));
        if (!c.drain().mode().equals("claims") && !c.drain().mode().equals("leader")) {
            problems.add("leasehold.drain.mode", "must be 'claims' or 'leader', got '" + c.drain().mode() + "'");
        }
        if (c.handler().name().equals("exec") && c.handler().exec().command().filter(s -> !s.isBlank()).isEmpty()) {
            problems.add("leasehold.handler.exec.command", "is required when leasehold.handler=exec");
        } else if (c.handler().name().equals("exec")) {
            ExecCommandFile.problem(c.handler().exec().command().get())
                    .ifPresent(why -> problems.add("leasehold.handler.exec.command", why));
        }
        if (c.handler().name().equals("http")) {
            RemoteRules.http(problems, c.handler().http());
        }
        maxBytes(problems, c);
        problems.atLeast("leasehold.item.max-uploads", 1, c.item().maxUploads());
        problems.atLeast("leasehold.item.max-batch", 1, c.item().maxBatch());
        if (c.item().uploadTimeout().toMillis() < 1000) {
            problems.add("leasehold.item.upload-timeout", "must be at least 1s, got " + DurationText.of(c.item().uploadTimeout()));
        }
        RemoteRules.lease(problems, c.lease());
        RemoteRules.nats(problems, c);
        problems.notBlankWhenSet("leasehold.api.token", c.api().token());
        problems.notBlankWhenSet("leasehold.api.viewer-token", c.api().viewerToken());
        for (var token : java.util.Map.of("leasehold.api.token", c.api().token(), "leasehold.api.viewer-token",
                c.api().viewerToken()).entrySet()) {
            if (token.getValue().filter(t -> !t.isBlank() && !t.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f)).isPresent()) {
                problems.add(token.getKey(), "must be printable ASCII without spaces (a client sends it in an HTTP header"
                        + " that carries no other), got one with a space or another character");
            }
        }
        if (c.api().viewerToken().isPresent() && c.api().token().isEmpty()) {
            problems.add("leasehold.api.viewer-token", "needs leasehold.api.token beside it (the operator's): with a viewer's"
                    + " token alone nobody could change anything; set both, or neither for an open API");
        } else if (c.api().viewerToken().isPresent() && c.api().viewerToken().equals(c.api().token())) {
            problems.add("leasehold.api.viewer-token", "is leasehold.api.token's own: give the viewer a token of its own");
        }
        schedules(problems, c);
    }

    /** Each schedule on its own, so every bad one is named in the same line. */
    private static void schedules(Problems problems, LeaseholdConfig c) {
        long maxBytes = c.item().maxBytes().asBigInteger().min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
        new java.util.TreeMap<>(c.schedules()).forEach((name, s) -> problems.built(() -> ConfigRecords.schedule(name, s))
                .ifPresent(schedule -> {
                    long bytes = schedule.payload().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                    if (bytes > maxBytes) { // each item would be refused at its fire time: say so now
                        problems.add(io.leasehold.core.RecurringSchedule.key(name, "payload"), "is " + bytes
                                + " bytes, more than leasehold.item.max-bytes (" + maxBytes + ")");
                    }
                }));
    }

    private static void maxBytes(Problems problems, LeaseholdConfig c) {
        java.math.BigInteger bytes = c.item().maxBytes().asBigInteger();
        if (bytes.signum() < 1) {
            problems.add("leasehold.item.max-bytes", "must be at least 1 byte");
        } else if (bytes.bitLength() > 63) { // the code counts bytes in a long
            problems.add("leasehold.item.max-bytes", "must be at most " + Long.MAX_VALUE + " bytes, got " + bytes);
        }
    }

    private static void notNegative(Problems problems, String key, Duration maxAge, String state) {
        if (maxAge.isNegative()) {
            problems.add(key, "must not be negative (0 keeps " + state + " items forever), got " + DurationText.of(maxAge));
        }
    }

    /** Stops the start; its message names the offending keys. */
    public static final class InvalidConfigException extends RuntimeException {
        public InvalidConfigException(String message) {
            super("invalid configuration: " + message);
        }

        /** The line the operator reads: which program refused, and why. */
        public String line() {
            return "leasehold: " + getMessage();
        }

        /**
         * This refusal to throw while Quarkus boots (a check that needs its beans, or a start that skipped
         * the pre-flight): Quarkus prints a {@link ConfigurationException}'s message alone on stderr, no
         * stack trace, and exits 1. No cause, so it is the root cause Quarkus looks at.
         */
        public ConfigurationException atStart() {
            return new ConfigurationException(line());
        }
    }
}
