package io.leasehold.nats;

import static io.nats.client.support.NatsJetStreamConstants.EXPECTED_LAST_SUB_SEQ_HDR;

import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseRecord;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreException;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import io.nats.client.Message;
import io.nats.client.KeyValueOptions;
import io.nats.client.PurgeOptions;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.MessageGetRequest;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StorageType;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.nats.client.support.NatsKeyValueUtil;
import java.io.IOException;
import java.util.Optional;
import org.jboss.logging.Logger;

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
    /** JetStream's "no message found": the key was never written (or its entries were purged). */
    static final int NO_MESSAGE_FOUND = 10037;

    private static final Logger LOG = Logger.getLogger(NatsKvLeaseStore.class);

    private final NatsBus bus;
    private final String bucket;
    private final int replicas;
    private final String key;
    private final String stream;
    private final NatsFailures failures;
    private final JetStreamOptions jsOptions;
    private final String subject;

    /** A store on a bucket made with one replica when missing. */
    public NatsKvLeaseStore(NatsBus bus, String bucket, String key) {
        this(bus, bucket, key, 1);
    }

    /** A store on a bucket made with {@code replicas} copies of its stream when missing. */
    public NatsKvLeaseStore(NatsBus bus, String bucket, String key, int replicas) {
        this.bus = bus;
        this.bucket = bucket;
        this.replicas = replicas;
        this.key = key;
        this.stream = "KV_" + bucket;
        this.subject = "$KV." + bucket + "." + key;
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
     * Makes the bucket when it is missing: one key, history 1, kept on disk in {@code replicas} copies.
     * Another instance making it at the same moment is fine. An existing bucket is used as it is, also
     * with another replica count (said in the log): changing a stream's replicas is the operator's
     * move ({@code nats stream edit}), and the lease works at any count. Answers whether this call made it.
     */
    public boolean ensureBucket() throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            JetStreamManagement jsm = bus.connection().jetStreamManagement(jsOptions);
            try {
                sayReplicas(jsm.getStreamInfo(stream).getConfiguration().getReplicas());
                return false;
            } catch (JetStreamApiException e) {
                if (e.getApiErrorCode() != STREAM_NOT_FOUND) {
                    throw e;
                }
            }
            KeyValueConfiguration config = KeyValueConfiguration.builder().name(bucket).maxHistoryPerKey(1)
                    .storageType(StorageType.File).replicas(replicas).description("leasehold controller lease")
                    .build();
            try {
                bus.connection().keyValueManagement(kvOptions()).create(config);
                return true;
            } catch (JetStreamApiException e) {
                if (e.getApiErrorCode() == STREAM_NAME_IN_USE) {
                    return false;
                }
                if (!NatsFailures.refuses(e)) {
                    // Certain: nothing was made. E.g. replicas > 1 on a server outside a cluster, or more
                    // replicas than the cluster has servers up: name the key that asks for them.
                    throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, "the bus cannot make the "
                            + "lease bucket " + bucket + " with " + replicas + " replica(s) (leasehold.lease.replicas): "
                            + e.getMessage(), e);
                }
                throw e;
            }
        } catch (Exception e) {
            throw failures.of("make the lease bucket " + bucket, e, start);
        }
    }

    /** How many copies the bucket's stream has, as the server reports it. */
    public int replicasFound() throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            return jsm().getStreamInfo(stream).getConfiguration().getReplicas();
        } catch (Exception e) {
            throw failures.of("read the configuration of " + bucket, e, start);
        }
    }

    private void sayReplicas(int found) {
        if (found < replicas) {
            LOG.warnf("the lease bucket %s exists with %d replica(s), fewer than the %d of leasehold.lease.replicas: "
                    + "it is used as it is (raise them with: nats stream edit %s --replicas %d)", bucket, found,
                    replicas, stream, replicas);
        } else if (found > replicas) {
            LOG.infof("the lease bucket %s exists with %d replicas, more than the %d of leasehold.lease.replicas: "
                    + "it is used as it is", bucket, found, replicas);
        }
    }

    @Override
    public Optional<Versioned> read() throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            Optional<KeyValueEntry> entry = last(true);
            return entry.filter(e -> e.getOperation() == KeyValueOperation.PUT)
                    .map(e -> new Versioned(e.getRevision(), decode(e)));
        } catch (Exception e) {
            throw failures.of("read " + where(), e, start);
        }
    }

    @Override
    public long create(LeaseRecord record) throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            byte[] json = LeaseJson.encode(record);
            try {
                return write(json, expecting(0));
            } catch (JetStreamApiException e) {
                // A deleted key still has its tombstone as latest entry: create over it at its revision.
                Optional<KeyValueEntry> last = e.getApiErrorCode() == NatsFailures.WRONG_LAST_SEQUENCE
                        ? last(false) : Optional.empty();
                if (last.isPresent() && last.get().getOperation() != KeyValueOperation.PUT) {
                    return write(json, expecting(last.get().getRevision()));
                }
                throw e;
            }
        } catch (Exception e) {
            throw failures.of("create " + where(), e, start);
        }
    }

    @Override
    public long update(LeaseRecord record, long revision) throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            return write(LeaseJson.encode(record), expecting(revision));
        } catch (Exception e) {
            throw failures.of("update " + where() + " at revision " + revision, e, start);
        }
    }

    @Override
    public void delete(long revision) throws LeaseStoreException {
        long start = System.nanoTime();
        try {
            write(null, NatsKeyValueUtil.getDeleteHeaders().put(EXPECTED_LAST_SUB_SEQ_HDR, Long.toString(revision)));
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
            if (last >= floor) {
                // Already past (the next write gets last+1 > floor): purging would only remove entries,
                // possibly the live lease at revision floor itself.
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

    private static Headers expecting(long revision) {
        return new Headers().put(EXPECTED_LAST_SUB_SEQ_HDR, Long.toString(revision));
    }

    /**
     * Writes to the key's subject as jnats' KeyValue does, but through a JetStream context of our own:
     * jnats' KeyValue waited 2 s for a publish with no server, whatever request timeout it was given.
     */
    private long write(byte[] data, Headers headers) throws Exception {
        return bus.connection().jetStream(jsOptions)
                .publish(NatsMessage.builder().subject(subject).data(data).headers(headers).build()).getSeqno();
    }

    /**
     * The key's latest entry (a tombstone included), asked of the stream API itself, which always
     * answers: a bucket that is gone says "stream not found" at once instead of leaving a direct get
     * without responders. Reading makes a missing bucket when asked to.
     */
    private Optional<KeyValueEntry> last(boolean makeIfMissing) throws Exception {
        byte[] ask = MessageGetRequest.lastForSubject(subject).serialize();
        Message answer = bus.connection().request("$JS.API.STREAM.MSG.GET." + stream, ask,
                bus.requestTimeout());
        if (answer == null) {
            throw new IOException("no answer to reading " + where() + " within " + bus.requestTimeout());
        }
        MessageInfo info = new MessageInfo(answer, stream, false);
        if (info.hasError()) {
            if (info.getApiErrorCode() == NO_MESSAGE_FOUND) {
                return Optional.empty();
            }
            if (info.getApiErrorCode() == STREAM_NOT_FOUND && makeIfMissing) {
                ensureBucket();
                return Optional.empty();
            }
            info.throwOnHasError();
        }
        return Optional.of(new KeyValueEntry(info));
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
