package io.leasehold.jetstream;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.util.Optional;

/**
 * A small KV bucket beside the ledger ({@code <ledger>-<suffix>}) for what the fleet keeps by hand: made on
 * first use, so a spool that never needed it has none.
 */
final class SideBucket {

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

    /** The live entry at {@code key}; empty when there is none or it was deleted. */
    Optional<KeyValueEntry> read(String key) throws IOException {
        try {
            KeyValueEntry e = NatsCalls.guarded("reading " + key + " in " + name, () -> kv().get(key));
            return e == null || e.getOperation() != KeyValueOperation.PUT || e.getValue() == null
                    ? Optional.empty() : Optional.of(e);
        } catch (JetStreamApiException e) {
            throw new IOException(key + " in " + name + " could not be read: " + e.getMessage(), e);
        }
    }

    KeyValue kv() throws IOException, JetStreamApiException {
        KeyValue made = kv;
        if (made == null) {
            synchronized (this) {
                if (kv == null) {
                    kv = Ledger.bucket(connection, name, replicas, "making the bucket " + name);
                }
                made = kv;
            }
        }
        return made;
    }
}
