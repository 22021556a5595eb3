package io.leasehold.jetstream;

import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.Pause;
import io.leasehold.spool.ScheduleBookText;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The drain's pause at key {@code drain.pause} of a bucket beside the ledger ({@code <ledger>-control}), made
 * on first use. A wipe of NATS's data takes it with the items: the fleet then claims again.
 */
final class JetStreamDrainSwitch implements DrainSwitch {

    private static final String KEY = "drain.pause";

    private final SideBucket bucket;

    JetStreamDrainSwitch(Connection connection, String ledgerBucket, int replicas) {
        this.bucket = new SideBucket(connection, ledgerBucket, "control", replicas);
    }

    @Override
    public Optional<Pause> pause() throws IOException {
        var entry = bucket.read(KEY);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ScheduleBookText.pause(new String(entry.get().getValue(), StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
            throw new IOException(KEY + " in " + bucket.name() + " is not a pause written by leasehold: " + e.getMessage()
                    + "; pause or resume again (POST /drain/pause or /drain/resume) to replace it", e);
        }
    }

    @Override
    public void setPause(Pause pause) throws IOException {
        try {
            NatsCalls.guarded("pausing or resuming the drain",
                    () -> bucket.kv().put(KEY, ScheduleBookText.of(pause).getBytes(StandardCharsets.UTF_8)));
        } catch (JetStreamApiException e) {
            throw new IOException("the drain's pause could not be written to " + bucket.name() + ": " + e.getMessage(), e);
        }
    }
}
