package io.leasehold.jetstream;

import io.leasehold.spool.ItemStore;
import io.leasehold.spool.UnfitFileException;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.ObjectStore;
import io.nats.client.api.ObjectInfo;
import io.nats.client.api.ObjectStoreConfiguration;
import io.nats.client.api.StorageType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Payloads in an object store bucket, one object per item, chunked by the client: a payload may be larger
 * than a message. Written before the item's ledger entry exists; read with the same bound as the directory's.
 */
final class Payloads {

    private final ObjectStore store;
    private final long maxBytes;

    Payloads(Connection connection, String bucket, int replicas, long maxBytes) throws IOException {
        this.maxBytes = maxBytes;
        try {
            this.store = NatsCalls.guarded("making the payload bucket " + bucket, () -> {
                if (!connection.objectStoreManagement().getBucketNames().contains(bucket)) {
                    connection.objectStoreManagement().create(ObjectStoreConfiguration.builder(bucket)
                            .storageType(StorageType.File).replicas(replicas).build());
                }
                return connection.objectStore(bucket);
            });
        } catch (JetStreamApiException e) {
            throw new IOException("the payload bucket " + bucket + " could not be made: " + e.getMessage(), e);
        }
    }

    /** A name of its own for one enqueue's payload of {@code id}. */
    static String freshName(String id) {
        return id + "/" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    }

    /** The item a payload's name belongs to: what comes before its last '/'; empty for a name of no item. */
    static Optional<String> idOf(String name) {
        int slash = name.lastIndexOf('/');
        return slash <= 0 ? Optional.empty() : Optional.of(name.substring(0, slash));
    }

    /** The names of every stored object (one request streaming their descriptions). */
    List<String> names() throws IOException {
        try {
            List<String> out = new ArrayList<>();
            for (ObjectInfo info : NatsCalls.guarded("listing the payloads", store::getList)) {
                if (!info.isDeleted()) {
                    out.add(info.getObjectName());
                }
            }
            return out;
        } catch (JetStreamApiException e) {
            throw new IOException("the payloads could not be listed: " + e.getMessage(), e);
        }
    }

    /**
     * Stores the payload under {@code name}, streamed in chunks; past {@code limit} bytes it throws
     * {@link ItemStore.PayloadTooLargeException} and what was stored of it is removed.
     */
    void put(String name, InputStream payload, long limit) throws IOException {
        BoundedInput bounded = new BoundedInput(payload, limit);
        try {
            NatsCalls.guarded("storing the payload " + name, () -> store.put(name, bounded));
        } catch (JetStreamApiException | IOException | RuntimeException e) {
            delete(name);
            if (bounded.exceeded) {
                throw new ItemStore.PayloadTooLargeException(limit);
            }
            if (bounded.failure != null) {
                throw bounded.failure; // the body's own failure (a client that broke off: 408), not the store's
            }
            throw e instanceof IOException io ? io : new IOException("the payload " + name + " could not be stored: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Removes the payload; one that is not there (never stored, or removed already) is left as it is, and
     * a null name (an inline payload) is nothing to remove.
     */
    void delete(String name) throws IOException {
        if (name == null) {
            return; // the payload was inline: it went with the entry
        }
        try {
            ObjectInfo info = NatsCalls.guarded("looking at the payload " + name, () -> store.getInfo(name));
            if (info == null || info.isDeleted()) {
                return; // an aborted put leaves no object: the client purges its chunks itself
            }
            NatsCalls.guarded("removing the payload " + name, () -> store.delete(name));
        } catch (JetStreamApiException e) {
            throw new IOException("the payload " + name + " could not be removed: " + e.getMessage(), e);
        }
    }

    /** At most max-bytes: a larger object is refused by its recorded size before a byte is read. */
    byte[] get(String name) throws IOException {
        try {
            ObjectInfo info = NatsCalls.guarded("looking at the payload " + name, () -> store.getInfo(name));
            if (info == null || info.isDeleted()) {
                throw new NoSuchFileException("the payload " + name);
            }
            if (info.getSize() > maxBytes) {
                throw new UnfitFileException(UnfitFileException.Kind.OVERSIZED, "the payload " + name + " is "
                        + info.getSize() + " bytes, more than " + maxBytes + " (leasehold.item.max-bytes)");
            }
            if (info.getSize() == 0) {
                // An empty object has no chunks, and the client's get waits for one until its timeout.
                return new byte[0];
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) info.getSize());
            NatsCalls.guarded("reading the payload " + name, () -> store.get(name, out));
            return out.toByteArray();
        } catch (JetStreamApiException e) {
            throw new IOException("the payload " + name + " could not be read: " + e.getMessage(), e);
        }
    }

    /** Counts what passes and ends the stream with an error one byte past the limit. */
    private static final class BoundedInput extends InputStream {
        private final InputStream in;
        private final long limit;
        private long read;
        boolean exceeded;
        /** What reading the body threw, as it threw it. */
        IOException failure;

        BoundedInput(InputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n;
            try {
                n = in.read(b, off, (int) Math.min(len, limit - read + 1));
            } catch (IOException e) {
                failure = e;
                throw e;
            }
            if (n > 0 && (read += n) > limit) {
                exceeded = true;
                throw new ItemStore.PayloadTooLargeException(limit);
            }
            return n;
        }
    }

    /**
     * The payload of {@code entry}: inline, or its object; empty when the object is gone (settled and purged
     * since the entry was read, or lost from the store).
     */
    Optional<byte[]> of(LedgerEntry entry) throws IOException {
        Optional<byte[]> inline = entry.inlinePayload();
        if (inline.isPresent()) {
            return inline;
        }
        try {
            return Optional.of(get(entry.payload()));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        }
    }
}
