package io.leasehold.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.nats.NatsSettings;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.PropertiesConfigSourceLoader;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Command mode's configuration: the service's mapping, built as Quarkus builds it, from the sources a
 * test gives in place of the process's own — {@code -D} (400), environment (300),
 * {@code config/application.properties} of the working directory (260) and the packaged
 * {@code application.properties} (250), read by SmallRye's own loaders — with Quarkus' profiles.
 */
class CommandConfigTest {

    @TempDir
    Path dir;
    final Map<String, String> properties = new HashMap<>();
    final Map<String, String> env = new HashMap<>();

    /** {@code config/application.properties} in the working directory. */
    void workingDirectoryFile(String text) throws IOException {
        Files.writeString(Files.createDirectories(dir.resolve("cwd/config")).resolve("application.properties"), text);
    }

    /** {@code application.properties} at the root of the jar's classpath. */
    void packagedFile(String text) throws IOException {
        Files.writeString(Files.createDirectories(dir.resolve("jar")).resolve("application.properties"), text);
    }

    CommandConfig read() throws IOException {
        ClassLoader jar = new URLClassLoader(new URL[] {dir.resolve("jar").toUri().toURL()}, null);
        SmallRyeConfigBuilder builder = ConfigUtils.emptyConfigBuilder().setAddDefaultSources(false)
                .withSources(new PropertiesConfigSource(properties, "-D", 400), new EnvConfigSource(env, 300))
                .withSources(PropertiesConfigSourceLoader.inFileSystem(
                        dir.resolve("cwd/config/application.properties").toUri().toString(), 260, jar))
                .withSources(PropertiesConfigSourceLoader.inClassPath("application.properties", 250, jar));
        return CommandConfig.from(builder);
    }

    String refused() {
        return assertThrows(InvalidConfigException.class, this::read).getMessage();
    }

    @Test
    void withNothingSetItHasTheMappingsDefaultsAndNoBus() throws IOException {
        CommandConfig c = read();
        assertEquals(Optional.empty(), c.nats("x"));
        assertEquals("leasehold-lease", c.lease().bucket());
        assertEquals("controller", c.lease().key());
        assertEquals(1, c.lease().replicas());
        assertEquals(new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(5), Duration.ofSeconds(10)), c.timing());
        assertEquals(Path.of("spool"), c.spoolDir());
        assertFalse(c.spoolDirSet(), "the default is not a setting");
    }

    @Test
    void eachSourceWinsOverTheOnesBelowIt() throws IOException {
        packagedFile("leasehold.lease.bucket=jar\nleasehold.lease.key=jar\nleasehold.lease.renew-every=2s\n"
                + "leasehold.lease.renew-deadline=3s\nleasehold.lease.duration=4s\n");
        workingDirectoryFile("leasehold.lease.bucket=file\nleasehold.lease.key=file\nleasehold.lease.duration=5s\n");
        env.put("LEASEHOLD_LEASE_KEY", "env");
        env.put("LEASEHOLD_LEASE_BUCKET", "env");
        properties.put("leasehold.lease.key", "property");
        CommandConfig c = read();
        assertEquals("property", c.lease().key(), "-D over the environment");
        assertEquals("env", c.lease().bucket(), "the environment over config/application.properties");
        assertEquals(Duration.ofSeconds(5), c.lease().duration(), "config/ over the packaged file");
        assertEquals(Duration.ofSeconds(2), c.lease().renewEvery(), "the packaged file over the defaults");
    }

    @Test
    void theProdProfileIsActiveUnlessQuarkusProfileSaysOtherwise() throws IOException {
        workingDirectoryFile("leasehold.lease.key=plain\n%prod.leasehold.lease.key=prod\n%staging.leasehold.lease.key=staging\n"
                + "%staging.leasehold.spool.dir=/srv/staging-spool\n");
        assertEquals("prod", read().lease().key());
        env.put("QUARKUS_PROFILE", "staging");
        CommandConfig staging = read();
        assertEquals("staging", staging.lease().key());
        assertEquals(Path.of("/srv/staging-spool"), staging.spoolDir());
        env.remove("QUARKUS_PROFILE");
        properties.put("quarkus.profile", "other");
        assertEquals("plain", read().lease().key(), "no %other value: the plain one");
    }

    @Test
    void theSpoolDirCountsAsSetFromAnySource() throws IOException {
        packagedFile("leasehold.spool.dir=/from/jar\n");
        assertTrue(read().spoolDirSet());
        assertEquals(Path.of("/from/jar"), read().spoolDir());
        Files.delete(dir.resolve("jar/application.properties"));
        env.put("LEASEHOLD_SPOOL_DIR", "relative/spool");
        assertTrue(read().spoolDirSet());
        assertEquals(Path.of("relative/spool"), read().spoolDir());
        env.clear();
        properties.put("leasehold.spool.dir", "spool");
        assertTrue(read().spoolDirSet(), "given, even when it is the default's value");
    }

    @Test
    void natsUrlStandsInOnlyWhenTheKeyIsUnset() throws IOException {
        env.put("NATS_URL", "nats://n:4222");
        assertEquals("nats://n:4222", read().nats("me").orElseThrow().urls());
        properties.put("leasehold.nats.url", "nats://k:4222");
        assertEquals("nats://k:4222", read().nats("me").orElseThrow().urls());
    }

    @Test
    void natsSettingsCarryCredentialsAndTimeouts() throws IOException {
        workingDirectoryFile("leasehold.nats.url=tls://h:4222\nleasehold.nats.user=u\nleasehold.nats.password=p\n"
                + "leasehold.nats.credentials=/c.creds\nleasehold.nats.request-timeout=750ms\n");
        env.put("LEASEHOLD_NATS_TLS_TRUSTSTORE_PASSWORD", "pw");
        NatsSettings s = read().nats("me").orElseThrow();
        assertEquals("tls://h:4222", s.urls());
        assertEquals(Optional.of("u"), s.user());
        assertEquals(Optional.of("p"), s.password());
        assertEquals(Optional.of(Path.of("/c.creds")), s.credentials());
        assertEquals(Optional.of("pw"), s.truststorePassword());
        assertEquals(Duration.ofMillis(750), s.requestTimeout());
        assertEquals(Duration.ofSeconds(2), s.connectTimeout());
        assertEquals("me", s.connectionName());
    }

    @Test
    void aValueThatCannotBeReadIsOneLineNamingItsKey() throws IOException {
        workingDirectoryFile("leasehold.lease.renew-every=soon\n");
        String said = refused();
        assertEquals("invalid configuration: leasehold.lease.renew-every cannot be \"soon\": not a duration (write it as 500ms,"
                + " 30s, 5m, 2h or PT5M)",
                said);
        env.put("LEASEHOLD_LEASE_REPLICAS", "three");
        said = refused();
        assertTrue(said.contains("leasehold.lease.replicas cannot be \"three\"") && said.contains("renew-every"), said);
        assertFalse(said.contains("\n"), said);
    }

    @Test
    void theServicesRulesAreApplied() throws IOException {
        env.put("LEASEHOLD_LEASE_RENEW_DEADLINE", "20s");
        assertTrue(refused().contains("leasehold.lease.duration (15s) must be at least"), refused());
        env.clear();
        properties.putAll(Map.of("leasehold.lease.renew-every", "500ms", "leasehold.lease.renew-deadline", "900ms",
                "leasehold.lease.duration", "2s"));
        assertTrue(refused().contains("leasehold.lease.renew-every must be at least 1s"), refused());
        properties.clear();
        properties.put("leasehold.lease.replicas", "7");
        assertEquals("invalid configuration: leasehold.lease.replicas must be between 1 and 5, got 7", refused());
        properties.clear();
        properties.putAll(Map.of("leasehold.lease.bucket", "a.b", "leasehold.nats.user", "u",
                "leasehold.nats.connect-timeout", "0s", "leasehold.nats.request-timeout", "15s"));
        String said = refused();
        for (String key : new String[] {"leasehold.lease.bucket", "leasehold.nats.password",
                "leasehold.nats.connect-timeout", "leasehold.nats.request-timeout"}) {
            assertTrue(said.contains(key), key + " in " + said);
        }
    }

    /** Each setting alone (the JetStream spool's with the spool chosen): refused, led by its key. */
    @ParameterizedTest
    @ValueSource(strings = {"leasehold.spool.dir= ", "leasehold.spool.kind=s3", "leasehold.spool.kind=jetstream",
        "leasehold.spool.jetstream.bucket=a.b", "leasehold.spool.jetstream.replicas=6",
        "leasehold.spool.tmp-max-age=30s", "leasehold.item.max-bytes=0", "leasehold.claim.lease=0s",
        "leasehold.claim.renewals-per-lease=1", "leasehold.claim.max-skew=-1s"})
    void theSpoolsAndTheClaimsKeysAreCheckedByTheServicesRules(String setting) throws IOException {
        String key = setting.substring(0, setting.indexOf('='));
        if (key.startsWith("leasehold.spool.jetstream.")) {
            properties.putAll(Map.of("leasehold.spool.kind", "jetstream", "leasehold.nats.url", "nats://h"));
        }
        properties.put(key, setting.substring(key.length() + 1));
        assertTrue(refused().startsWith("invalid configuration: " + key + " "), refused());
    }

    @Test
    void keysOfTheDrainAndTheApiAreNotCommandModesBusiness() throws IOException {
        properties.putAll(Map.of("leasehold.handler", "exec", "leasehold.drain.mode", "sideways"));
        assertEquals("controller", read().lease().key(), "checked by the service, at its start");
    }

    /** The service's boot refuses a leasehold.* key its mapping does not know (a review found it): so does command mode. */
    @Test
    void aMisspeltKeyIsRefusedNamingIt() throws IOException {
        properties.put("leasehold.lease.duraton", "1s");
        assertTrue(refused().startsWith("invalid configuration: leasehold.lease.duraton "), refused());
    }
}
