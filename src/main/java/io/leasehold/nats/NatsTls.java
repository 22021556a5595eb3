package io.leasehold.nats;

import io.nats.client.Options;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context for the bus: trust from the truststore (the JVM's default trust without one), the
 * client key from the keystore (mutual TLS), and the server's certificate checked against the host
 * connected to. A store that cannot be read fails naming its key, never with a stack trace.
 */
final class NatsTls {

    private NatsTls() {
    }

    static SSLContext context(NatsSettings settings) throws IOException {
        try {
            KeyManager[] keys = null;
            if (settings.keystore().isPresent()) {
                char[] pw = chars(settings.keystorePassword());
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(load("leasehold.nats.tls.keystore", settings.keystore().get(), pw), pw);
                keys = kmf.getKeyManagers();
            }
            TrustManager[] trust = null; // null: the JVM's default trust (cacerts)
            if (settings.truststore().isPresent()) {
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(load("leasehold.nats.tls.truststore", settings.truststore().get(),
                        chars(settings.truststorePassword())));
                trust = tmf.getTrustManagers();
            }
            // jnats' own default. Under TLS 1.3 a server refusing the client's certificate says so only
            // after the handshake, and jnats then reports a bare time-out instead of the refusal.
            SSLContext context = SSLContext.getInstance(Options.DEFAULT_SSL_PROTOCOL);
            context.init(keys, trust, null);
            return new HostCheckingSslContext(context);
        } catch (GeneralSecurityException e) {
            throw new IOException("no TLS context for NATS: " + e.getMessage(), e);
        }
    }

    /** Reads a PKCS#12 or JKS store, whichever the file is (the JDK tells them apart by their content). */
    private static KeyStore load(String key, Path file, char[] password) throws IOException {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IOException(key + " (" + file + ") is not a readable file");
        }
        try {
            return KeyStore.getInstance(file.toFile(), password);
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            // E.g. "keystore password was incorrect", or "Unrecognized keystore format".
            throw new IOException(key + " (" + file + ") cannot be read: " + e.getMessage());
        }
    }

    private static char[] chars(Optional<String> password) {
        return password.map(String::toCharArray).orElse(null);
    }
}
