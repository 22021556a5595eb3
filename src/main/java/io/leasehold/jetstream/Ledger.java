package io.leasehold.jetstream;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.StorageType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ledger bucket: one key per item, each move one compare-and-set at the revision last read. A move
 * the server refuses, or whose answer is lost, is decided by reading the entry again and comparing it
 * whole with what was written: "wrong last sequence" can come back for a write that landed.
 */
final class Ledger {

    /** An entry and the revision it was read at. */
    record Seen(long revision, LedgerEntry entry) {
    }

    static final int WRONG_LAST_SEQUENCE = 10071;

    private final Connection connection;
    private final String bucket;
    private final KeyValue kv;

    Ledger(Connection connection, String bucket, int replicas) throws IOException {
        this.connection = connection;
        this.bucket = bucket;
        try {
            this.kv = NatsCalls.guarded("making the ledger " + bucket, () -> {
                if (!connection.keyValueManagement().getBucketNames().contains(bucket)) {
                    connection.keyValueManagement().create(KeyValueConfiguration.builder().name(bucket)
                            .maxHistoryPerKey(1).storageType(StorageType.File).replicas(replicas).build());
                }
                return connection.keyValue(bucket);
            });
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger bucket " + bucket + " could not be made: " + e.getMessage(), e);
        }
    }

    String bucket() {
        return bucket;
    }

    Connection connection() {
        return connection;
    }

    /** The item's entry; empty when it has none (never enqueued, or purged). */
    Optional<Seen> read(String id) throws IOException {
        try {
            KeyValueEntry e = NatsCalls.guarded("reading " + id, () -> kv.get(LedgerKeys.key(id)));
            if (e == null || e.getOperation() != KeyValueOperation.PUT || e.getValue() == null) {
                return Optional.empty();
            }
            return Optional.of(new Seen(e.getRevision(), LedgerJson.decode(e.getValue())));
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger entry of " + id + " could not be read: " + e.getMessage(), e);
        }
    }

    /** A new entry; false when the key holds one already. A tombstone is replaced, by one creator only. */
    boolean create(String id, LedgerEntry entry) throws IOException {
        try {
            NatsCalls.guarded("creating " + id, () -> kv.create(LedgerKeys.key(id), LedgerJson.encode(entry)));
            return true;
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return landed(id, entry);
            }
            throw new IOException("the ledger entry of " + id + " could not be created: " + e.getMessage(), e);
        }
    }

    /** {@code next} in place of what was seen; false when someone else moved the item first. */
    boolean replace(String id, Seen seen, LedgerEntry next) throws IOException {
        try {
            NatsCalls.guarded("moving " + id, () -> kv.update(LedgerKeys.key(id), LedgerJson.encode(next), seen.revision()));
            return true;
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return landed(id, next);
            }
            throw new IOException("the ledger entry of " + id + " could not be written: " + e.getMessage(), e);
        }
    }

    /** Removes the entry as it was seen; false when it was moved meanwhile. */
    boolean remove(String id, Seen seen) throws IOException {
        try {
            NatsCalls.guarded("removing " + id, () -> {
                kv.delete(LedgerKeys.key(id), seen.revision());
                return null;
            });
            return true;
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return false; // moved or removed by someone else since it was read
            }
            throw new IOException("the ledger entry of " + id + " could not be removed: " + e.getMessage(), e);
        }
    }

    /** The bucket itself, for a watch. */
    KeyValue kv() {
        return kv;
    }

    /** Every item's key in the bucket, as ids (keys no id maps to are skipped). */
    List<String> ids() throws IOException {
        try {
            List<String> ids = new ArrayList<>();
            for (String key : NatsCalls.guarded("listing " + bucket, kv::keys)) {
                LedgerKeys.id(key).ifPresent(ids::add);
            }
            return ids;
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger " + bucket + " could not be listed: " + e.getMessage(), e);
        }
    }

    /** After a refusal: the write counts only if the entry now is exactly what this writer wrote. */
    private boolean landed(String id, LedgerEntry written) throws IOException {
        return read(id).map(now -> now.entry().equals(written)).orElse(false);
    }
}
