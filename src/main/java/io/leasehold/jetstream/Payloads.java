package io.leasehold.jetstream;

import io.leasehold.spool.UnfitFileException;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.ObjectStore;
import io.nats.client.api.ObjectInfo;
import io.nats.client.api.ObjectStoreConfiguration;
import io.nats.client.api.StorageType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.security.NoSuchAlgorithmException;

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
            if (!connection.objectStoreManagement().getBucketNames().contains(bucket)) {
                connection.objectStoreManagement().create(ObjectStoreConfiguration.builder(bucket)
                        .storageType(StorageType.File).replicas(replicas).build());
            }
            this.store = connection.objectStore(bucket);
        } catch (JetStreamApiException e) {
            throw new IOException("the payload bucket " + bucket + " could not be made: " + e.getMessage(), e);
        }
    }

    void put(String id, byte[] payload) throws IOException {
        try {
            store.put(LedgerKeys.key(id), new ByteArrayInputStream(payload));
        } catch (JetStreamApiException | NoSuchAlgorithmException e) {
            throw new IOException("the payload of " + id + " could not be stored: " + e.getMessage(), e);
        }
    }

    /** At most max-bytes: a larger object is refused by its recorded size before a byte is read. */
    byte[] get(String id) throws IOException {
        String name = LedgerKeys.key(id);
        try {
            ObjectInfo info = store.getInfo(name);
            if (info == null || info.isDeleted()) {
                throw new NoSuchFileException("the payload of " + id);
            }
            if (info.getSize() > maxBytes) {
                throw new UnfitFileException(UnfitFileException.Kind.OVERSIZED, "the payload of " + id + " is "
                        + info.getSize() + " bytes, more than " + maxBytes + " (leasehold.item.max-bytes)");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) info.getSize());
            store.get(name, out);
            return out.toByteArray();
        } catch (JetStreamApiException | InterruptedException | NoSuchAlgorithmException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("the payload of " + id + " could not be read: " + e.getMessage(), e);
        }
    }
}
