package io.leasehold.jetstream;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.KeyValueWatchOption;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.impl.NatsKeyValueWatchSubscription;
import io.leasehold.spool.ItemStore;
import io.nats.client.api.StorageType;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
    /** How long one listing may take before the store counts as unreachable. */
    private static final Duration LISTING_WAIT = Duration.ofSeconds(60);

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
        return created(id, entry).isPresent();
    }

    /** As {@link #create}, answering the entry at the revision it was created at; empty when refused. */
    Optional<Seen> created(String id, LedgerEntry entry) throws IOException {
        try {
            long revision = NatsCalls.guarded("creating " + id,
                    () -> kv.create(LedgerKeys.key(id), LedgerJson.encode(entry)));
            return Optional.of(new Seen(revision, entry));
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return read(id).filter(now -> now.entry().equals(entry)); // its own after all, or another's
            }
            throw new IOException("the ledger entry of " + id + " could not be created: " + e.getMessage(), e);
        }
    }

    /** {@code next} in place of what was seen; false when someone else moved the item first. */
    boolean replace(String id, Seen seen, LedgerEntry next) throws IOException {
        return move(id, seen, next).isPresent();
    }

    /** As {@link #replace}, answering the entry as written, at its new revision; empty when the move lost. */
    Optional<Seen> move(String id, Seen seen, LedgerEntry next) throws IOException {
        try {
            long revision = NatsCalls.guarded("moving " + id,
                    () -> kv.update(LedgerKeys.key(id), LedgerJson.encode(next), seen.revision()));
            return Optional.of(new Seen(revision, next));
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return read(id).filter(now -> now.entry().equals(next)); // landed after all, or lost
            }
            throw new IOException("the ledger entry of " + id + " could not be written: " + e.getMessage(), e);
        }
    }

    /** A key of the ledger's own bookkeeping (no item maps to it): created once; false when it exists. */
    boolean createRaw(String key, byte[] value) throws IOException {
        try {
            NatsCalls.guarded("creating " + key, () -> kv.create(key, value));
            return true;
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return false;
            }
            throw new IOException("the ledger key " + key + " could not be created: " + e.getMessage(), e);
        }
    }

    Optional<byte[]> readRaw(String key) throws IOException {
        try {
            KeyValueEntry e = NatsCalls.guarded("reading " + key, () -> kv.get(key));
            return e == null || e.getOperation() != KeyValueOperation.PUT ? Optional.empty()
                    : Optional.ofNullable(e.getValue());
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger key " + key + " could not be read: " + e.getMessage(), e);
        }
    }

    void removeRaw(String key) throws IOException {
        try {
            NatsCalls.guarded("removing " + key, () -> {
                kv.delete(key);
                return null;
            });
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger key " + key + " could not be removed: " + e.getMessage(), e);
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

    /** Removes delete markers older than the client's threshold (30 minutes): listings stream them too. */
    void purgeDeletes() throws IOException {
        try {
            NatsCalls.guarded("tidying " + bucket, () -> {
                kv.purgeDeletes();
                return null;
            });
        } catch (JetStreamApiException e) {
            throw new IOException("the delete markers of " + bucket + " could not be purged: " + e.getMessage(), e);
        }
    }

    /** The bucket itself, for a watch. */
    KeyValue kv() {
        return kv;
    }

    /** An item's id and its entry, as one listing saw it. */
    record Listed(String id, Seen seen) {
    }

    /**
     * Every item's entry, in one pass: a watch's initial values streamed in one go, instead of a request
     * per key. Entries no id maps to, or that cannot be read, are skipped.
     */
    List<Listed> entries() throws IOException {
        List<Listed> out = new ArrayList<>(); // filled on the watch's thread; read after its end is seen
        CountDownLatch ended = new CountDownLatch(1);
        KeyValueWatcher collect = new KeyValueWatcher() {
            @Override
            public void watch(KeyValueEntry e) {
                if (ended.getCount() == 0 || e.getOperation() != KeyValueOperation.PUT || e.getValue() == null) {
                    return; // past the end, updates are the next listing's
                }
                Optional<String> id = LedgerKeys.id(e.getKey());
                if (id.isPresent()) {
                    try {
                        out.add(new Listed(id.get(), new Seen(e.getRevision(), LedgerJson.decode(e.getValue()))));
                    } catch (IOException unreadable) {
                        // written by someone else: not an item of ours
                    }
                }
            }

            @Override
            public void endOfData() {
                ended.countDown();
            }
        };
        try {
            NatsKeyValueWatchSubscription watch = NatsCalls.guarded("listing " + bucket,
                    () -> kv.watchAll(collect, KeyValueWatchOption.IGNORE_DELETE));
            try {
                if (!ended.await(LISTING_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new ItemStore.SpoolUnavailableException("listing " + bucket + ": no end of the listing within "
                            + LISTING_WAIT, null);
                }
            } finally {
                watch.unsubscribe();
            }
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger " + bucket + " could not be listed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("listing " + bucket + ": interrupted");
        }
        return out;
    }

}
