package io.leasehold.nats;

import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseRecord;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseStoreException.Kind;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import io.nats.client.KeyValue;
import io.nats.client.KeyValueOptions;
import io.nats.client.PurgeOptions;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.StorageType;
import java.util.Optional;

/**
 * The controller lease at one key of one JetStream KV bucket. Revisions are the bucket stream's
 * sequence numbers, so they grow for every write to the bucket and {@link #moveRevisionsPast} can move
 * them by purging the stream up to a sequence. Every call is one request bounded by the bus's request
 * timeout; its failure is classified by {@link NatsFailures}.
 */
public final class NatsKvLeaseStore implements LeaseStore {

    /** JetStream's "stream not found": the bucket does not exist (never made, or its data wiped). */
    static final int STREAM_NOT_FOUND = 10059;
    /** JetStream's "stream name already in use" (with another config): another instance made it first. */
    static final int STREAM_NAME_IN_USE = 10058;

    private final NatsBus bus;
    private final String bucket;
    private final String key;
    private final String stream;
    private final NatsFailures failures;
    private final JetStreamOptions jsOptions;
    private volatile KeyValue kv;

    public NatsKvLeaseStore(NatsBus bus, String bucket, String key) {
        this.bus = bus;
        this.bucket = bucket;
        this.key = key;
        this.stream = "KV_" + bucket;
        this.failures = new NatsFailures(bus.refusals(), bucket, key);
        this.jsOptions = JetStreamOptions.builder().requestTimeout(bus.requestTimeout()).build();
    }

    public String bucket() {
        return bucket;
    }

    public String key() {
        return key;
    }

    /**
     * Makes the bucket when it is missing: one key, history 1, kept on disk. Another instance making it
     * at the same moment is fine. Answers whether this call made it.
     */
    public boolean ensureBucket() throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            JetStreamManagement jsm = bus.connection().jetStreamManagement(jsOptions);
            try {
                jsm.getStreamInfo(stream);
                return false;
            } catch (JetStreamApiException e) {
                if (e.getApiErrorCode() != STREAM_NOT_FOUND) {
                    throw e;
                }
            }
            KeyValueConfiguration config = KeyValueConfiguration.builder().name(bucket).maxHistoryPerKey(1)
                    .storageType(StorageType.File).description("leasehold controller lease").build();
            try {
                bus.connection().keyValueManagement(kvOptions()).create(config);
                return true;
            } catch (JetStreamApiException e) {
                if (e.getApiErrorCode() == STREAM_NAME_IN_USE) {
                    return false;
                }
                throw e;
            }
        } catch (Exception e) {
            throw failures.of("make the lease bucket " + bucket, e, start);
        }
    }

    @Override
    public Optional<Versioned> read() throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            // Every read makes a missing bucket: the bus's data may be wiped under a running instance, and
            // one that waits (reads) must be able to take the lease in a new bucket; writes never make it.
            ensureBucket();
            // get answers null for a key never written and for a tombstone (deleted or purged).
            KeyValueEntry entry = kv(false).get(key);
            if (entry == null || entry.getOperation() != KeyValueOperation.PUT) {
                return Optional.empty();
            }
            return Optional.of(new Versioned(entry.getRevision(), decode(entry)));
        } catch (LeaseStoreException e) {
            throw e;
        } catch (Exception e) {
            throw failures.of("read " + where(), e, start);
        }
    }

    @Override
    public long create(LeaseRecord record) throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            // jnats writes at "expected revision 0", and over a tombstone at the tombstone's revision.
            return kv(false).create(key, LeaseJson.encode(record));
        } catch (Exception e) {
            throw failures.of("create " + where(), e, start);
        }
    }

    @Override
    public long update(LeaseRecord record, long revision) throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            return kv(false).update(key, LeaseJson.encode(record), revision);
        } catch (Exception e) {
            throw failures.of("update " + where() + " at revision " + revision, e, start);
        }
    }

    @Override
    public void delete(long revision) throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            kv(false).delete(key, revision);
        } catch (Exception e) {
            throw failures.of("delete " + where() + " at revision " + revision, e, start);
        }
    }

    @Override
    public long lastRevision() throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            return jsm().getStreamInfo(stream).getStreamState().getLastSequence();
        } catch (Exception e) {
            throw failures.of("read the last revision of " + bucket, e, start);
        }
    }

    @Override
    public long moveRevisionsPast(long floor) throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            JetStreamManagement jsm = jsm();
            long last = jsm.getStreamInfo(stream).getStreamState().getLastSequence();
            if (last > floor) {
                // Already past: purging would only remove entries, possibly the live lease.
                return last + 1;
            }
            // Removes every entry below floor+1 and makes floor+1 the stream's next sequence; the server
            // keeps that in the stream's state on disk, so it survives a restart.
            jsm.purgeStream(stream, PurgeOptions.builder().sequence(floor + 1).build());
            return jsm.getStreamInfo(stream).getStreamState().getLastSequence() + 1;
        } catch (Exception e) {
            throw failures.of("move the revisions of " + bucket + " past " + floor, e, start);
        }
    }

    private String where() {
        return bucket + "/" + key;
    }

    private JetStreamManagement jsm() throws Exception {
        return bus.connection().jetStreamManagement(jsOptions);
    }

    private KeyValueOptions kvOptions() {
        return KeyValueOptions.builder().jetStreamOptions(jsOptions).build();
    }

    /** The bucket's handle; reading makes a missing bucket, writing never does (see the class doc). */
    private KeyValue kv(boolean makeIfMissing) throws Exception {
        KeyValue handle = kv;
        if (handle != null) {
            return handle;
        }
        if (makeIfMissing) {
            ensureBucket();
        }
        // Looks the stream up once; a bucket wiped later makes writes fail as unanswered (no stream).
        handle = bus.connection().keyValue(bucket, kvOptions());
        kv = handle;
        return handle;
    }

    private LeaseRecord decode(KeyValueEntry entry) {
        try {
            return LeaseJson.decode(entry.getValue());
        } catch (RuntimeException | java.io.IOException e) {
            // Someone else's bytes: still a live entry at a revision, so it can be waited out and taken
            // over like any unrenewed holder, but it names nobody and carries no epoch.
            return new LeaseRecord(new Holder("unreadable value at revision " + entry.getRevision() + ": "
                    + e.getMessage(), "", ""), 0, null, null);
        }
    }
}
