package io.leasehold.jetstream;

import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.Nats;
import io.nats.client.api.PublishAck;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Settled items written straight into a ledger bucket, as a settlement would have left them, for tests
 * that need very many (100,000 through the API would take minutes): published asynchronously, a window
 * at a time.
 */
public final class LedgerSeeds {

    private static final int WINDOW = 2_000;

    private LedgerSeeds() {
    }

    /** Each of {@code ids} as an item settled in {@code state} at {@code at}; failed ones with {@code reason}. */
    public static void settled(String url, String bucket, ItemState state, List<String> ids, Instant at, String reason)
            throws Exception {
        String inline = Base64.getEncoder().encodeToString("seeded".getBytes(StandardCharsets.UTF_8));
        try (Connection connection = Nats.connect(url)) {
            JetStream js = connection.jetStream();
            List<CompletableFuture<PublishAck>> window = new ArrayList<>(WINDOW);
            for (String id : ids) {
                String generation = Generation.first().toString();
                Map<String, AttemptRecord> records = state == ItemState.FAILED
                        ? Map.of(generation, new AttemptRecord(AttemptRecord.Kind.FAILED, 0, reason)) : Map.of();
                LedgerEntry entry = new LedgerEntry(state.label(), LedgerEntry.CLAIMED, 1, generation, "seed", at, at,
                        at, null, inline, records, Long.toString(id.hashCode(), 36));
                window.add(js.publishAsync("$KV." + bucket + "." + LedgerKeys.key(id), LedgerJson.encode(entry)));
                if (window.size() == WINDOW) {
                    CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
                    window.clear();
                }
            }
            CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
        }
    }
}
