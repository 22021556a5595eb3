package io.leasehold.nats;

import io.nats.client.AuthenticationException;
import java.net.SocketException;
import java.nio.file.FileSystemException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLException;

/**
 * Says in one line why a connect failed and which setting to look at. jnats answers most failures
 * with "Unable to connect to NATS servers: [urls]" and reports the reason (a TLS handshake refused,
 * a credentials file missing) only to the error listener; this puts the two together. The line never
 * holds a secret: URL user info and every configured password or token are masked.
 */
final class NatsConnectFailure {

    private static final String CLIENT_REFUSED = "TLS: the server ended the handshake (a refused client certificate "
            + "or a closed connection); ";

    private NatsConnectFailure() {
    }

    /**
     * @param failed what the connect threw
     * @param onTheSide the exceptions the client reported meanwhile, oldest first
     * @param serverError the server's last error meanwhile (such as "Authorization Violation"), or null
     */
    static String describe(NatsSettings settings, Exception failed, List<Exception> onTheSide, String serverError) {
        String said;
        Throwable cause = telling(onTheSide);
        if (saysAnywhere(failed, onTheSide, "ssl connection wanted by client")) {
            // jnats' own words ("SSL connection wanted by client.") name neither the setting nor the fix.
            said = "the server does not offer TLS, but this client asks for it (a tls:// URL in leasehold.nats.url,"
                    + " or a leasehold.nats.tls.* store set): use a nats:// URL, or enable TLS on the server";
        } else if (failed instanceof AuthenticationException) {
            said = "the server refused this client's credentials (" + serverWords(failed) + "); " + credentials(settings);
        } else if (serverError != null && serverError.toLowerCase(Locale.ROOT).contains("authorization violation")) {
            // With several URLs jnats throws for the last one tried, which may be down rather than refusing.
            said = "the server refused this client's credentials (" + serverError + "); " + credentials(settings);
        } else if (cause != null) {
            // Not jnats' "Unable to connect to NATS servers: [...]": callers name the URLs, and its list
            // comes in a random order, so the same failure would read differently at each try.
            said = why(settings, cause);
        } else {
            said = failed.getMessage() == null ? failed.getClass().getSimpleName()
                    : failed.getClass().getSimpleName() + ": " + failed.getMessage();
        }
        return settings.hideSecrets(said);
    }

    private static String why(NatsSettings s, Throwable e) {
        String words = e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
        if (e instanceof java.util.concurrent.TimeoutException && e.getMessage() == null) {
            // jnats' own time-out says nothing ("TimeoutException: null"): a listener that never spoke NATS.
            return "no NATS greeting within " + s.connectTimeout().toMillis() + " ms (leasehold.nats.connect-timeout;"
                    + " is it a NATS server?)";
        }
        String text = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        FileSystemException file = find(e, FileSystemException.class);
        if (file != null) {
            String key = s.credentials().map(p -> p.toString().equals(file.getFile())).orElse(false)
                    ? "leasehold.nats.credentials " : "";
            return key + file.getFile() + " cannot be read (" + file.getClass().getSimpleName() + ")";
        }
        if (e instanceof SSLException) {
            if (text.contains("pkix") || text.contains("no trusted certificate") || text.contains("certification path")) {
                return "TLS: the server's certificate is not trusted (" + words + "); "
                        + (s.truststore().isPresent() ? "check leasehold.nats.tls.truststore"
                                : "no leasehold.nats.tls.truststore is set, so only the JVM's default CAs are trusted");
            }
            if (text.contains("subject alternative") || text.contains("no name matching")) {
                return "TLS: the server's certificate does not name the host connected to (" + words + ")";
            }
            if (text.contains("bad_certificate") || text.contains("certificate_required") || text.contains("unknown_ca")
                    || text.contains("certificate_unknown")) {
                return CLIENT_REFUSED + clientCertificateHint(s);
            }
            return "TLS handshake failed (" + words + "); " + clientCertificateHint(s);
        }
        if (text.contains("ssl required by server")) {
            return "the server requires TLS: use a tls:// URL, or set leasehold.nats.tls.truststore";
        }
        if (e instanceof SocketException && s.usesTls()) {
            // A server that refuses the client's certificate closes the connection: the client hears its
            // alert or, by timing, only a broken pipe on its next write. One text for both, so that the
            // same refusal reads the same at every try (and is logged once).
            return CLIENT_REFUSED + clientCertificateHint(s);
        }
        return words;
    }

    private static boolean saysAnywhere(Exception failed, List<Exception> onTheSide, String words) {
        List<Throwable> all = new java.util.ArrayList<>(onTheSide);
        all.add(failed);
        for (Throwable t : all) {
            for (Throwable c = t; c != null; c = c.getCause()) {
                if (String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT).contains(words)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String clientCertificateHint(NatsSettings s) {
        return "if the server checks client certificates, " + (s.keystore().isPresent()
                ? "check that leasehold.nats.tls.keystore holds one its CA signed" : "set leasehold.nats.tls.keystore");
    }

    private static String credentials(NatsSettings s) {
        if (s.credentials().isPresent()) {
            return "check leasehold.nats.credentials (" + s.credentials().get() + ")";
        }
        if (s.token().isPresent()) {
            return "check leasehold.nats.token";
        }
        if (s.user().isPresent()) {
            return "check leasehold.nats.user and leasehold.nats.password";
        }
        if (!s.safeUrls().equals(s.urls())) {
            return "check the user info in leasehold.nats.url";
        }
        return "none are set (leasehold.nats.user/password, token or credentials)";
    }

    /** The server's words: jnats puts them after the last colon ("...: Authorization Violation"). */
    private static String serverWords(Exception e) {
        String m = String.valueOf(e.getMessage());
        int colon = m.lastIndexOf(": ");
        return colon < 0 ? m : m.substring(colon + 2);
    }

    /**
     * Of the exceptions reported while connecting, the one that tells most: a TLS or file problem if
     * there was one (a time-out that follows a refused handshake says nothing), else the last.
     */
    private static Throwable telling(List<Exception> seen) {
        Throwable last = null;
        for (Exception e : seen) {
            Throwable t = unwrap(e);
            if (find(t, SSLException.class) != null || find(t, FileSystemException.class) != null) {
                return t;
            }
            last = t;
        }
        return last;
    }

    private static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while (t instanceof ExecutionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
