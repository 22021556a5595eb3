package io.leasehold.jetstream;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.StorageType;
import java.io.IOException;
import java.util.Optional;

/**
 * A small KV bucket beside the ledger ({@code <ledger>-<suffix>}) for what the fleet keeps by hand: made on
 * first use, so a spool that never needed it has none.
 */
final class SideBucket {

    /** JetStream's answer for a stream (a bucket) that does not exist. */
    private static final int STREAM_NOT_FOUND = 10059;

    private final Connection connection;
    private final String name;
    private final int replicas;
    private volatile KeyValue kv;

    SideBucket(Connection connection, String ledgerBucket, String suffix, int replicas) {
        this.connection = connection;
        this.name = ledgerBucket + "-" + suffix;
        this.replicas = replicas;
    }

    String name() {
        return name;
    }

    /**
     * The live entry at {@code key}; empty when there is none, it was deleted, or the bucket was never made: a
     * read never makes it (a read-only look, a fleet polling every second, an account that may not make streams).
     */
    Optional<KeyValueEntry> read(String key) throws IOException {
        try {
            KeyValue made = kv != null ? kv : existing();
            if (made == null) {
                return Optional.empty();
            }
            KeyValueEntry e = NatsCalls.guarded("reading " + key + " in " + name, () -> made.get(key));
            return e == null || e.getOperation() != KeyValueOperation.PUT || e.getValue() == null
                    ? Optional.empty() : Optional.of(e);
        } catch (JetStreamApiException e) {
            throw new IOException(key + " in " + name + " could not be read: " + e.getMessage(), e);
        }
    }

    /** Whether the bucket was made: one stream-info request until it is seen, never making it. */
    boolean exists() throws IOException {
        try {
            return kv != null || existing() != null;
        } catch (JetStreamApiException e) {
            throw new IOException(name + " could not be looked up: " + e.getMessage(), e);
        }
    }

    /** The bucket if it exists (one stream-info request), remembered; null when it was never made. */
    private KeyValue existing() throws IOException, JetStreamApiException {
        try {
            NatsCalls.guarded("looking for the bucket " + name, () -> connection.keyValueManagement().getStatus(name));
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == STREAM_NOT_FOUND) {
                return null;
            }
            throw e;
        }
        synchronized (this) {
            if (kv == null) {
                kv = connection.keyValue(name);
            }
            return kv;
        }
    }

    /** The bucket, made when missing: for writes. */
    KeyValue kv() throws IOException, JetStreamApiException {
        KeyValue made = kv;
        if (made == null) {
            synchronized (this) {
                if (kv == null) {
                    kv = made(connection, name, replicas, "making the bucket " + name);
                }
                made = kv;
            }
        }
        return made;
    }

    /**
     * The KV bucket {@code name}, made when missing (one value per key, on file, {@code replicas} copies): the
     * ledger's, and each bucket beside it.
     */
    static KeyValue made(Connection connection, String name, int replicas, String what)
            throws IOException, JetStreamApiException {
        return NatsCalls.guarded(what, () -> {
            if (!connection.keyValueManagement().getBucketNames().contains(name)) {
                connection.keyValueManagement().create(KeyValueConfiguration.builder().name(name)
                        .maxHistoryPerKey(1).storageType(StorageType.File).replicas(replicas).build());
            }
            return connection.keyValue(name);
        });
    }
}
