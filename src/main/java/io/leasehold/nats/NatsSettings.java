package io.leasehold.nats;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How to reach the bus, as users configure it. {@code urls} is a comma-separated list; a
 * {@code tls://} URL, or a truststore/keystore, turns TLS on. Every optional part left empty is simply
 * not used. {@code requestTimeout} bounds each JetStream call (the lease bounds it further).
 */
public record NatsSettings(
        String urls,
        Optional<String> user,
        Optional<String> password,
        Optional<String> token,
        Optional<Path> credentials,
        Optional<Path> truststore,
        Optional<String> truststorePassword,
        Optional<Path> keystore,
        Optional<String> keystorePassword,
        Duration connectTimeout,
        Duration requestTimeout,
        String connectionName) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);

    /** Only URLs: no authentication, no TLS beyond what a {@code tls://} URL asks for. */
    public static NatsSettings of(String urls) {
        return new NatsSettings(urls, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_REQUEST_TIMEOUT, "leasehold");
    }

    public NatsSettings withUser(String user, String password) {
        return new NatsSettings(urls, Optional.of(user), Optional.of(password), token, credentials, truststore,
                truststorePassword, keystore, keystorePassword, connectTimeout, requestTimeout, connectionName);
    }

    public NatsSettings withToken(String token) {
        return new NatsSettings(urls, user, password, Optional.of(token), credentials, truststore,
                truststorePassword, keystore, keystorePassword, connectTimeout, requestTimeout, connectionName);
    }

    public NatsSettings withRequestTimeout(Duration timeout) {
        return new NatsSettings(urls, user, password, token, credentials, truststore, truststorePassword,
                keystore, keystorePassword, connectTimeout, timeout, connectionName);
    }
}
