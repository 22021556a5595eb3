package io.leasehold.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseRecord;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.nats.client.Connection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Small helpers shared by the NATS tests: a connection with a short request timeout, unique buckets. */
final class NatsTesting {

    /** Short, so a call to a stopped server fails fast; long enough for a loaded 2-core machine. */
    static final Duration REQUEST_TIMEOUT = Duration.ofMillis(500);

    /** How long a restarted server's clients get to reconnect on their own. */
    static final Duration RECONNECT_WITHIN = Duration.ofSeconds(10);

    private NatsTesting() {
    }

    static NatsBus connect(NatsServer server) {
        return connect(DefaultBus.settings(server.url()));
    }

    static NatsBus connect(NatsSettings settings) {
        try {
            return NatsConnector.connect(settings.withRequestTimeout(REQUEST_TIMEOUT));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until a JetStream call of every one of these clients goes through again after a restart. */
    static void reconnected(NatsServer server, List<NatsBus> buses) {
        Await.until("the clients to reconnect to " + server.url(), RECONNECT_WITHIN,
                () -> buses.stream().allMatch(NatsTesting::answers));
    }

    private static boolean answers(NatsBus bus) {
        if (bus.connection().getStatus() != Connection.Status.CONNECTED) {
            return false;
        }
        try {
            bus.connection().jetStreamManagement().getAccountStatistics();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Connects with {@code settings} and does real KV work on the connection: makes a bucket, creates
     * the lease in it and reads it back. Fails the test when any of it fails.
     */
    static void connectAndUseKv(NatsSettings settings) throws Exception {
        try (NatsBus bus = NatsConnector.connect(settings.withRequestTimeout(REQUEST_TIMEOUT))) {
            NatsKvLeaseStore store = new NatsKvLeaseStore(bus, uniqueBucket(), "controller");
            assertTrue(store.ensureBucket(), "the bucket is made");
            long revision = store.create(record("a", 0));
            LeaseStore.Versioned read = store.read().orElseThrow();
            assertEquals(revision, read.revision());
            assertEquals(record("a", 0), read.record());
        }
    }

    /** Connecting with {@code settings} fails: answers the message, which must hold none of {@code secrets}. */
    static String refused(NatsSettings settings, String... secrets) {
        IOException e = assertThrows(IOException.class, () -> connectAndUseKv(settings));
        for (String secret : secrets) {
            assertFalse(e.getMessage().contains(secret), "a secret in the message: " + e.getMessage());
        }
        assertNull(e.getCause(), "no cause to print: jnats' messages name the URLs with their user info");
        return e.getMessage();
    }

    /** A bucket name no other test uses, as jnats' own tests do. */
    static String uniqueBucket() {
        return "lease-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static LeaseRecord record(String instance, long epoch) {
        Instant now = Instant.parse("2025-01-02T03:04:05.678Z");
        return new LeaseRecord(new Holder(instance, "host-" + instance, "build-1"), epoch, now, now);
    }

    /** Runs a call expected to fail and answers its exception, failing the test when it succeeds. */
    static LeaseStoreException failure(String what, StoreCall call) {
        try {
            Object answer = call.run();
            throw new AssertionError(what + " should have failed but answered " + answer);
        } catch (LeaseStoreException e) {
            return e;
        }
    }

    @FunctionalInterface
    interface StoreCall {
        Object run() throws LeaseStoreException;
    }
}
