package io.leasehold.jetstream;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.impl.NatsKeyValueWatchSubscription;
import java.io.IOException;
import java.time.Duration;
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

    /** Who hears of this instance's writes as they are answered. */
    interface Writes {
        void wrote(String id, long revision, LedgerEntry entry);

        /** {@code id} removed as it was seen at {@code revision}. */
        void removed(String id, long revision);

        Writes NONE = new Writes() {
            @Override
            public void wrote(String id, long revision, LedgerEntry entry) {
            }

            @Override
            public void removed(String id, long revision) {
            }
        };
    }

    static final int WRONG_LAST_SEQUENCE = 10071;

    private final Connection connection;
    private final String bucket;
    private final int replicas;
    private final KeyValue kv;
    private final JetStream js;
    /** Written to under its own subjects: not a mirror, no sources (see {@link #subject}). */
    private final boolean plain;
    private volatile Writes writes = Writes.NONE;
    /** Volatile: {@link #mirrorIfStarted} reads it without the lock that {@link #mirror} holds while it calls the server. */
    private volatile LedgerMirror mirror;
    /** How long a listing waits for the first whole picture (the watch's initial values) before the store counts as unreachable. */
    private static final Duration FIRST_PICTURE_WAIT = Duration.ofSeconds(60);

    Ledger(Connection connection, String bucket, int replicas) throws IOException {
        this.connection = connection;
        this.replicas = replicas;
        this.bucket = bucket;
        try {
            this.kv = SideBucket.made(connection, bucket, replicas, "making the ledger " + bucket);
            this.js = connection.jetStream();
            KeyValueConfiguration made = NatsCalls.guarded("looking at the ledger " + bucket,
                    () -> kv.getStatus().getConfiguration());
            this.plain = made.getMirror() == null && made.getSources().isEmpty();
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger bucket " + bucket + " could not be made: " + e.getMessage(), e);
        }
    }

    /** The picture if it has been started, never starting it: a scrape's read, which must make no call. */
    Optional<LedgerMirror> mirrorIfStarted() {
        return Optional.ofNullable(mirror);
    }

    /**
     * The ledger's picture in memory (one per ledger, started on first use): what listings and counts
     * read. It hears of this ledger's writes at once and is made afresh on every reconnect.
     */
    synchronized LedgerMirror mirror() throws IOException {
        if (mirror == null) {
            LedgerMirror made = new LedgerMirror(this, FIRST_PICTURE_WAIT);
            made.start();
            writes = made;
            connection.addConnectionListener((c, event) -> {
                if (event == ConnectionListener.Events.RECONNECTED) {
                    made.reconnected();
                }
            });
            mirror = made;
        }
        return mirror;
    }

    /** Ends the picture's watch; the connection is the caller's. */
    synchronized void close() {
        if (mirror != null) {
            mirror.close();
        }
    }

    /** The copies its bucket keeps; a bucket beside it keeps as many. */
    int replicas() {
        return replicas;
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
            writes.wrote(id, revision, entry);
            return Optional.of(new Seen(revision, entry));
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return told(id, read(id).filter(now -> now.entry().equals(entry))); // its own after all, or another's
            }
            throw new IOException("the ledger entry of " + id + " could not be created: " + e.getMessage(), e);
        }
    }

    /** The subject an item's writes go to: the bucket is a plain one of this server's, no mirror, no domain. */
    String subject(String id) {
        return "$KV." + bucket + "." + LedgerKeys.key(id);
    }

    JetStream jetStream() {
        return js;
    }

    /**
     * Whether writes may be sent to {@link #subject} directly: a bucket made as a mirror is written
     * through its origin, which only the client's own calls know how to reach.
     */
    boolean plain() {
        return plain;
    }

    /** A write of this instance's answered outside {@link #created} and {@link #move} ({@link OverlappedWrites}). */
    void heard(String id, Seen landed) {
        writes.wrote(id, landed.revision(), landed.entry());
    }

    private Optional<Seen> told(String id, Optional<Seen> landed) {
        landed.ifPresent(seen -> writes.wrote(id, seen.revision(), seen.entry()));
        return landed;
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
            writes.wrote(id, revision, next);
            return Optional.of(new Seen(revision, next));
        } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return told(id, read(id).filter(now -> now.entry().equals(next))); // landed after all, or lost
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
            writes.removed(id, seen.revision());
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

    /**
     * A watch of every key: first the last entry of each (removals included), then every write as the
     * server sends it, in stream order. {@code watcher} runs on the connection's dispatcher thread.
     */
    NatsKeyValueWatchSubscription watch(KeyValueWatcher watcher) throws IOException {
        try {
            return NatsCalls.guarded("watching " + bucket, () -> kv.watchAll(watcher));
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger " + bucket + " could not be watched: " + e.getMessage(), e);
        }
    }

    /** The sequence of the newest write the ledger's stream holds (or held: a purge keeps it). */
    long lastSequence() throws IOException {
        try {
            return NatsCalls.guarded("looking at " + bucket,
                    () -> kv.getStatus().getBackingStreamInfo().getStreamState().getLastSequence());
        } catch (JetStreamApiException e) {
            throw new IOException("the ledger " + bucket + " could not be looked at: " + e.getMessage(), e);
        }
    }
}
