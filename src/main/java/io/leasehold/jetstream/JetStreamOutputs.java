package io.leasehold.jetstream;

import io.leasehold.spool.AttemptOutput;
import io.leasehold.spool.AttemptOutputJson;
import io.leasehold.spool.AttemptOutputs;
import io.leasehold.spool.ItemStore;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValuePurgeOptions;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Attempts' outputs at key {@code <item key>.<attempt>} of a bucket beside the ledger ({@code <ledger>-outputs}),
 * made on first use: apart from the ledger entry, whose every move would otherwise carry them. Dropped outputs
 * leave purge markers, which the upkeep's sweep removes ({@link #purgeMarkers}).
 */
final class JetStreamOutputs implements AttemptOutputs {

    private final SideBucket bucket;

    JetStreamOutputs(Connection connection, String ledgerBucket, int replicas) {
        this.bucket = new SideBucket(connection, ledgerBucket, "outputs", replicas);
    }

    @Override
    public void keep(String id, AttemptOutput output) throws IOException {
        int n = output.attempt();
        try {
            KeyValue kv = bucket.kv();
            NatsCalls.guarded("keeping the output of " + id, () -> kv.put(key(id, n), AttemptOutputJson.encode(output)));
            if (n > KEPT) {
                // Listed, not just n - KEPT dropped: a number that kept nothing leaves an older one behind it.
                for (String older : keys(kv, id)) {
                    int m = number(older);
                    if (m > 0 && m <= n - KEPT) {
                        NatsCalls.guarded("dropping " + older, () -> { kv.purge(older); return null; });
                    }
                }
            }
        } catch (JetStreamApiException e) {
            throw new IOException("the output of " + id + " attempt " + n + " could not be kept in " + bucket.name()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Removes the markers that dropped outputs leave (the upkeep's sweep); nothing when the bucket was never made. */
    void purgeMarkers() throws IOException {
        if (!bucket.exists()) {
            return;
        }
        try {
            // No threshold: nothing watches this bucket, so no reader needs a recent marker to see a removal.
            KeyValuePurgeOptions all = KeyValuePurgeOptions.builder().deleteMarkersNoThreshold().build();
            NatsCalls.guarded("tidying " + bucket.name(), () -> { bucket.kv().purgeDeletes(all); return null; });
        } catch (JetStreamApiException e) {
            throw new IOException("the markers of " + bucket.name() + " could not be purged: " + e.getMessage(), e);
        }
    }

    private static int number(String key) {
        String last = key.substring(key.lastIndexOf('.') + 1);
        return last.matches("[1-9][0-9]{0,8}") ? Integer.parseInt(last) : 0;
    }

    @Override
    public Optional<AttemptOutput> read(String id, int attempt) throws IOException {
        var entry = bucket.read(key(id, attempt));
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(AttemptOutputJson.decode(entry.get().getValue()));
        } catch (IOException e) {
            throw new ItemStore.UnfitOutputException(key(id, attempt) + " in " + bucket.name() + " is not an output"
                    + " leasehold wrote; delete it (nats kv del " + bucket.name() + " " + key(id, attempt) + ")");
        }
    }

    @Override
    public void forget(String id) throws IOException {
        if (!bucket.exists()) {
            return; // never made: nothing kept, and a purge must not make it
        }
        try {
            KeyValue kv = bucket.kv();
            for (String key : keys(kv, id)) {
                NatsCalls.guarded("dropping " + key, () -> { kv.purge(key); return null; });
            }
        } catch (JetStreamApiException e) {
            throw new IOException("the outputs of " + id + " could not be removed from " + bucket.name() + ": "
                    + e.getMessage(), e);
        }
    }

    private static List<String> keys(KeyValue kv, String id) throws IOException, JetStreamApiException {
        return NatsCalls.guarded("listing the outputs of " + id, () -> kv.keys(LedgerKeys.key(id) + ".*"));
    }

    private static String key(String id, int attempt) {
        return LedgerKeys.key(id) + "." + attempt;
    }
}
