package io.leasehold.jetstream;

import io.leasehold.spool.AttemptOutput;
import io.leasehold.spool.AttemptOutputJson;
import io.leasehold.spool.AttemptOutputs;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Attempts' outputs at key {@code <item key>.<attempt>} of a bucket beside the ledger ({@code <ledger>-outputs}),
 * made on first use: apart from the ledger entry, whose every move would otherwise carry them.
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
            if (n == 1) {
                // A first attempt (a new item, or a retry by hand): the outputs of an earlier run go.
                for (String stale : keys(kv, id)) {
                    if (!stale.equals(key(id, 1))) {
                        NatsCalls.guarded("dropping " + stale, () -> { kv.purge(stale); return null; });
                    }
                }
            } else if (n > KEPT) {
                NatsCalls.guarded("dropping an old output of " + id, () -> { kv.purge(key(id, n - KEPT)); return null; });
            }
        } catch (JetStreamApiException e) {
            throw new IOException("the output of " + id + " attempt " + n + " could not be kept in " + bucket.name()
                    + ": " + e.getMessage(), e);
        }
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
            throw new IOException(key(id, attempt) + " in " + bucket.name() + ": " + e.getMessage(), e);
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
