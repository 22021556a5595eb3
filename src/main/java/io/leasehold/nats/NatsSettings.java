package io.leasehold.nats;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

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

    /** The user info of a URL ({@code nats://user:password@host}, {@code nats://token@host}). */
    private static final Pattern USER_INFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^/@\\s,\\[\\]]*@");

    /** Never the secrets: a record's own toString would print every password. */
    @Override
    public String toString() {
        return "NatsSettings[" + safeUrls() + "]";
    }

    /** TLS is on: a truststore or keystore is set, or a URL is {@code tls://}. */
    public boolean usesTls() {
        return truststore.isPresent() || keystore.isPresent()
                || Arrays.stream(urls.split(",")).map(String::strip).anyMatch(u -> u.regionMatches(true, 0, "tls://", 0, 6));
    }

    /** The URLs as they may be shown: user info masked. */
    public String safeUrls() {
        return hideSecrets(urls);
    }

    /** {@code text} with URL user info and every configured password and token masked, for logs and /lease. */
    public String hideSecrets(String text) {
        String masked = USER_INFO.matcher(text).replaceAll("$1***@");
        for (Optional<String> secret : List.of(password, token, truststorePassword, keystorePassword)) {
            if (secret.isPresent() && !secret.get().isEmpty()) {
                masked = masked.replace(secret.get(), "***");
            }
        }
        return masked;
    }

    public NatsSettings withUser(String user, String password) {
        return new NatsSettings(urls, Optional.of(user), Optional.of(password), token, credentials, truststore,
                truststorePassword, keystore, keystorePassword, connectTimeout, requestTimeout, connectionName);
    }

    public NatsSettings withToken(String token) {
        return new NatsSettings(urls, user, password, Optional.of(token), credentials, truststore,
                truststorePassword, keystore, keystorePassword, connectTimeout, requestTimeout, connectionName);
    }

    public NatsSettings withCredentials(Path creds) {
        return new NatsSettings(urls, user, password, token, Optional.of(creds), truststore, truststorePassword,
                keystore, keystorePassword, connectTimeout, requestTimeout, connectionName);
    }

    /** TLS trusting the certificates of {@code store} (PKCS#12 or JKS). */
    public NatsSettings withTruststore(Path store, String storePassword) {
        return new NatsSettings(urls, user, password, token, credentials, Optional.of(store), Optional.of(storePassword),
                keystore, keystorePassword, connectTimeout, requestTimeout, connectionName);
    }

    /** TLS with the client key and certificate of {@code store}, for servers that check clients. */
    public NatsSettings withKeystore(Path store, String storePassword) {
        return new NatsSettings(urls, user, password, token, credentials, truststore, truststorePassword,
                Optional.of(store), Optional.of(storePassword), connectTimeout, requestTimeout, connectionName);
    }

    public NatsSettings withRequestTimeout(Duration timeout) {
        return new NatsSettings(urls, user, password, token, credentials, truststore, truststorePassword,
                keystore, keystorePassword, connectTimeout, timeout, connectionName);
    }
}
