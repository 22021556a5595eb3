package io.leasehold.command;

import io.leasehold.config.ConfigCheck;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.nats.NatsSettings;
import io.quarkus.runtime.configuration.DurationConverter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The service's keys as command mode reads them, without booting Quarkus: a system property
 * ({@code -Dleasehold.lease.bucket=...}) first, then the environment under the same name or in Quarkus'
 * mapping ({@code LEASEHOLD_LEASE_BUCKET}); {@code NATS_URL} stands in for an unset
 * {@code leasehold.nats.url}. Defaults are the service's. A blank value counts as unset.
 * {@code application.properties} is not consulted.
 */
public record CommandConfig(Optional<String> natsUrl, Optional<String> user, Optional<String> password,
        Optional<String> token, Optional<String> credentials, Optional<String> truststore,
        Optional<String> truststorePassword, Optional<String> keystore, Optional<String> keystorePassword,
        Duration connectTimeout, Duration requestTimeout, LeaseKeys lease, Path spoolDir) {

    public static CommandConfig fromSystem() throws ConfigException {
        return read(toMap(System.getProperties()), System.getenv());
    }

    /** Reads every key, and reports every bad one at once (each message names its key). */
    public static CommandConfig read(Map<String, String> properties, Map<String, String> env)
            throws ConfigException {
        Reader r = new Reader(properties, env);
        Optional<String> url = r.text("leasehold.nats.url").or(() -> r.text("NATS_URL"));
        LeaseKeys lease = new LeaseKeys(r.text("leasehold.lease.bucket").orElse("leasehold-lease"),
                r.text("leasehold.lease.key").orElse("controller"),
                r.duration("leasehold.lease.duration", "15s"),
                r.duration("leasehold.lease.renew-every", "5s"),
                r.duration("leasehold.lease.renew-deadline", "10s"),
                r.integer("leasehold.lease.replicas", 1));
        CommandConfig config = new CommandConfig(url, r.text("leasehold.nats.user"),
                r.text("leasehold.nats.password"), r.text("leasehold.nats.token"),
                r.text("leasehold.nats.credentials"), r.text("leasehold.nats.tls.truststore"),
                r.text("leasehold.nats.tls.truststore-password"), r.text("leasehold.nats.tls.keystore"),
                r.text("leasehold.nats.tls.keystore-password"),
                r.duration("leasehold.nats.connect-timeout", "2s"),
                r.duration("leasehold.nats.request-timeout", "2s"), lease,
                Path.of(r.text("leasehold.spool.dir").orElse("spool")));
        List<String> problems = new ArrayList<>(r.problems);
        if (r.problems.stream().noneMatch(p -> p.startsWith("leasehold.lease."))) {
            problems.addAll(ConfigCheck.leaseProblems(lease));
        }
        if (config.user.isPresent() != config.password.isPresent()) {
            problems.add("leasehold.nats.password and leasehold.nats.user go together");
        }
        positive(problems, "leasehold.nats.connect-timeout", config.connectTimeout);
        positive(problems, "leasehold.nats.request-timeout", config.requestTimeout);
        if (!problems.isEmpty()) {
            throw new ConfigException(String.join("; ", problems));
        }
        return config;
    }

    /** The lease timing; valid once {@link #read} returned. */
    public LeaseTiming timing() {
        return new LeaseTiming(lease.duration(), lease.renewEvery(), lease.renewDeadline());
    }

    /** How to reach the bus, when a URL is set (otherwise no-bus). */
    public Optional<NatsSettings> nats(String connectionName) {
        return natsUrl.map(urls -> new NatsSettings(urls, user, password, token, credentials.map(Path::of),
                truststore.map(Path::of), truststorePassword, keystore.map(Path::of), keystorePassword,
                connectTimeout, requestTimeout, connectionName));
    }

    /** Quarkus' environment name of a key: every character but letters and digits becomes '_'. */
    static String envName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private static void positive(List<String> problems, String key, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            problems.add(key + " must be positive, got " + value);
        }
    }

    private static Map<String, String> toMap(java.util.Properties properties) {
        Map<String, String> map = new java.util.HashMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }

    /** Looks keys up and collects what cannot be read. */
    private static final class Reader {
        private final Map<String, String> properties;
        private final Map<String, String> env;
        private final List<String> problems = new ArrayList<>();

        Reader(Map<String, String> properties, Map<String, String> env) {
            this.properties = properties;
            this.env = env;
        }

        Optional<String> text(String key) {
            for (String value : new String[] {properties.get(key), env.get(key), env.get(envName(key))}) {
                if (value != null && !value.isBlank()) {
                    return Optional.of(value.strip());
                }
            }
            return Optional.empty();
        }

        int integer(String key, int fallback) {
            Optional<String> value = text(key);
            try {
                return value.map(Integer::parseInt).orElse(fallback);
            } catch (NumberFormatException e) {
                problems.add(key + " must be a whole number, got '" + value.get() + "'");
                return fallback;
            }
        }

        Duration duration(String key, String fallback) {
            String value = text(key).orElse(fallback);
            try {
                Duration parsed = DurationConverter.parseDuration(value);
                if (parsed != null) {
                    return parsed;
                }
            } catch (RuntimeException e) {
                // reported below, naming the key
            }
            problems.add(key + " must be a duration such as 5s, 500ms or PT5S, got '" + value + "'");
            return DurationConverter.parseDuration(fallback);
        }
    }
}
