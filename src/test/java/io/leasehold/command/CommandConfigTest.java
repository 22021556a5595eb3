package io.leasehold.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.nats.NatsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CommandConfigTest {

    private static CommandConfig read(Map<String, String> properties, Map<String, String> env) throws ConfigException {
        return CommandConfig.read(properties, env);
    }

    @Test
    void withNothingSetItHasTheServicesDefaultsAndNoBus() throws ConfigException {
        CommandConfig c = read(Map.of(), Map.of());
        assertEquals(Optional.empty(), c.natsUrl());
        assertEquals(Optional.empty(), c.nats("x"));
        assertEquals(new LeaseKeys("leasehold-lease", "controller", Duration.ofSeconds(15), Duration.ofSeconds(5),
                Duration.ofSeconds(10), 1), c.lease());
        assertEquals(Path.of("spool"), c.spoolDir());
        assertEquals(Duration.ofSeconds(2), c.connectTimeout());
        assertEquals(Duration.ofSeconds(2), c.requestTimeout());
    }

    @Test
    void environmentInQuarkusMappingIsRead() throws ConfigException {
        CommandConfig c = read(Map.of(), Map.of("LEASEHOLD_NATS_URL", "nats://a:1,nats://b:2",
                "LEASEHOLD_LEASE_RENEW_EVERY", "2s", "LEASEHOLD_LEASE_RENEW_DEADLINE", "3s",
                "LEASEHOLD_LEASE_DURATION", "PT4S", "LEASEHOLD_LEASE_BUCKET", "b-1", "LEASEHOLD_SPOOL_DIR", "/s",
                "LEASEHOLD_NATS_TLS_TRUSTSTORE_PASSWORD", "pw", "LEASEHOLD_LEASE_REPLICAS", "3"));
        assertEquals(Optional.of("nats://a:1,nats://b:2"), c.natsUrl());
        assertEquals(new LeaseKeys("b-1", "controller", Duration.ofSeconds(4), Duration.ofSeconds(2),
                Duration.ofSeconds(3), 3), c.lease());
        assertEquals(Path.of("/s"), c.spoolDir());
        assertEquals(Optional.of("pw"), c.truststorePassword());
    }

    @Test
    void systemPropertiesWinOverTheEnvironment() throws ConfigException {
        CommandConfig c = read(Map.of("leasehold.lease.key", "from-property"),
                Map.of("LEASEHOLD_LEASE_KEY", "from-env"));
        assertEquals("from-property", c.lease().key());
    }

    @Test
    void natsUrlStandsInOnlyWhenTheKeyIsUnset() throws ConfigException {
        assertEquals(Optional.of("nats://n:4222"), read(Map.of(), Map.of("NATS_URL", "nats://n:4222")).natsUrl());
        assertEquals(Optional.of("nats://k:4222"), read(Map.of("leasehold.nats.url", "nats://k:4222"),
                Map.of("NATS_URL", "nats://n:4222")).natsUrl());
        assertEquals(Optional.empty(), read(Map.of("leasehold.nats.url", "  "), Map.of()).natsUrl(),
                "a blank value counts as unset");
    }

    @Test
    void natsSettingsCarryCredentialsAndTimeouts() throws ConfigException {
        NatsSettings s = read(Map.of("leasehold.nats.url", "tls://h:4222", "leasehold.nats.user", "u",
                "leasehold.nats.password", "p", "leasehold.nats.credentials", "/c.creds",
                "leasehold.nats.request-timeout", "750ms"), Map.of()).nats("me").orElseThrow();
        assertEquals("tls://h:4222", s.urls());
        assertEquals(Optional.of("u"), s.user());
        assertEquals(Optional.of("p"), s.password());
        assertEquals(Optional.of(Path.of("/c.creds")), s.credentials());
        assertEquals(Duration.ofMillis(750), s.requestTimeout());
        assertEquals("me", s.connectionName());
    }

    @Test
    void aBadDurationNamesItsKey() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> read(Map.of("leasehold.lease.renew-every", "soon"), Map.of()));
        assertTrue(e.getMessage().contains("leasehold.lease.renew-every") && e.getMessage().contains("'soon'"),
                e.getMessage());
    }

    @Test
    void inconsistentTimingsAreRefusedByTheServicesRules() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> read(Map.of(), Map.of("LEASEHOLD_LEASE_RENEW_DEADLINE", "20s")));
        assertTrue(e.getMessage().contains("leasehold.lease.duration"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> read(Map.of("leasehold.lease.renew-every", "500ms",
                "leasehold.lease.renew-deadline", "900ms", "leasehold.lease.duration", "2s"), Map.of()));
        assertTrue(e.getMessage().contains("leasehold.lease.renew-every must be at least 1s"), e.getMessage());
    }

    @Test
    void otherBadValuesNameTheirKeys() {
        ConfigException e = assertThrows(ConfigException.class, () -> read(Map.of("leasehold.lease.bucket",
                "a.b", "leasehold.nats.user", "u", "leasehold.nats.connect-timeout", "0s"), Map.of()));
        assertTrue(e.getMessage().contains("leasehold.lease.bucket"), e.getMessage());
        assertTrue(e.getMessage().contains("leasehold.nats.password"), e.getMessage());
        assertTrue(e.getMessage().contains("leasehold.nats.connect-timeout"), e.getMessage());
    }

    @Test
    void replicasAreReadAndCheckedByTheServicesRules() throws ConfigException {
        assertEquals(5, read(Map.of("leasehold.lease.replicas", "5"), Map.of()).lease().replicas());
        ConfigException e = assertThrows(ConfigException.class,
                () -> read(Map.of("leasehold.lease.replicas", "7"), Map.of()));
        assertEquals("invalid configuration: leasehold.lease.replicas must be between 1 and 5, got 7", e.getMessage());
        e = assertThrows(ConfigException.class, () -> read(Map.of(), Map.of("LEASEHOLD_LEASE_REPLICAS", "three")));
        assertEquals("invalid configuration: leasehold.lease.replicas must be a whole number, got 'three'",
                e.getMessage());
    }

    @Test
    void envNamesFollowQuarkus() {
        assertEquals("LEASEHOLD_NATS_TLS_KEYSTORE_PASSWORD", CommandConfig.envName("leasehold.nats.tls.keystore-password"));
    }
}
