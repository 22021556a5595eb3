package io.leasehold.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made at test time with the JDK's own {@code keytool} (offline, nothing
 * downloaded), with a server certificate for a given host and a client certificate, written as the
 * files nats-server reads (PEM) and the files leasehold reads (PKCS#12 truststore and keystore).
 * EC P-256 keys: quick to make, and both Go's and Java's TLS take them.
 */
public final class TestCertificates {

    /** The password of every store this class writes (tests pass it as the store password). */
    public static final String PASSWORD = "store-pass-1";

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /**
     * Makes a CA named {@code name} in {@code dir}, a server certificate whose subject alternative
     * names are {@code serverNames} (keytool's syntax: {@code ip:127.0.0.1,dns:localhost}) and a
     * client certificate, both signed by the CA.
     */
    public static TestCertificates make(Path dir, String name, String serverNames) {
        TestCertificates made = new TestCertificates(dir);
        try {
            Files.createDirectories(dir);
            Path work = dir.resolve("work.p12");
            made.keytool("-genkeypair", "-keystore", work.toString(), "-alias", "ca", "-dname", "CN=" + name + " CA",
                    "-ext", "bc:c", "-ext", "ku:c=keyCertSign,cRLSign");
            made.keytool("-genkeypair", "-keystore", work.toString(), "-alias", "server", "-dname",
                    "CN=" + name + " server", "-signer", "ca", "-signerkeypass", PASSWORD, "-ext", "san=" + serverNames,
                    "-ext", "eku=serverAuth", "-ext", "ku:c=digitalSignature");
            made.keytool("-genkeypair", "-keystore", work.toString(), "-alias", "client", "-dname",
                    "CN=" + name + " client", "-signer", "ca", "-signerkeypass", PASSWORD, "-ext", "eku=clientAuth",
                    "-ext", "ku:c=digitalSignature");
            made.export(load(work));
            return made;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the certificates keytool made in " + dir, e);
        }
    }

    /** The CA certificate, PEM (nats-server's {@code ca_file}). */
    public Path caPem() {
        return dir.resolve("ca.pem");
    }

    /** The server's certificate chain, PEM ({@code cert_file}). */
    public Path serverCertPem() {
        return dir.resolve("server-cert.pem");
    }

    /** The server's private key, PKCS#8 PEM ({@code key_file}). */
    public Path serverKeyPem() {
        return dir.resolve("server-key.pem");
    }

    /** A PKCS#12 truststore holding only the CA certificate. */
    public Path truststore() {
        return dir.resolve("truststore.p12");
    }

    /** A PKCS#12 keystore holding the client's key and its chain (for mutual TLS). */
    public Path clientKeystore() {
        return dir.resolve("client.p12");
    }

    /** nats-server's {@code tls} block for this CA's server certificate; {@code verify} asks for client certificates. */
    public String serverTlsBlock(boolean verify) {
        return "tls {\n  cert_file: \"" + serverCertPem() + "\"\n  key_file: \"" + serverKeyPem() + "\"\n  ca_file: \""
                + caPem() + "\"\n  verify: " + verify + "\n  timeout: 5\n}\n";
    }

    private void export(KeyStore work) throws IOException, GeneralSecurityException {
        char[] pw = PASSWORD.toCharArray();
        Certificate ca = work.getCertificate("ca");
        Files.writeString(caPem(), pem("CERTIFICATE", ca.getEncoded()));
        StringBuilder chain = new StringBuilder();
        for (Certificate c : work.getCertificateChain("server")) {
            chain.append(pem("CERTIFICATE", c.getEncoded()));
        }
        Files.writeString(serverCertPem(), chain);
        Key serverKey = work.getKey("server", pw);
        Files.writeString(serverKeyPem(), pem("PRIVATE KEY", serverKey.getEncoded()));

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, pw);
        trust.setCertificateEntry("ca", ca);
        store(trust, truststore());

        KeyStore client = KeyStore.getInstance("PKCS12");
        client.load(null, pw);
        client.setKeyEntry("client", (PrivateKey) work.getKey("client", pw), pw, work.getCertificateChain("client"));
        store(client, clientKeystore());
    }

    private static KeyStore load(Path p12) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    private static void store(KeyStore ks, Path to) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(to)) {
            ks.store(out, PASSWORD.toCharArray());
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD, "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-noprompt"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        // keytool says little; reading to its end first means it can never block on a full pipe.
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("keytool did not finish within 60s: " + command);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running keytool", e);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("keytool exited " + p.exitValue() + ": " + command + "\n" + out);
        }
    }
}
