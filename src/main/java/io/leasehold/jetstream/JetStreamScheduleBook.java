package io.leasehold.jetstream;

import io.leasehold.spool.Pause;
import io.leasehold.spool.ScheduleBook;
import io.leasehold.spool.ScheduleBookText;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * The schedules' book in a KV bucket of its own beside the ledger ({@code <ledger>-schedules}): the mark of
 * a schedule at key {@code <name>.mark}, moved forward only, by compare-and-set on the entry's revision (two
 * instances moving it at once: the later fire time stays); a pause by hand at {@code <name>.pause}. Made on
 * first use, so a spool that never had a schedule has no such bucket.
 */
final class JetStreamScheduleBook implements ScheduleBook {

    private final SideBucket bucket;

    JetStreamScheduleBook(Connection connection, String ledgerBucket, int replicas) {
        this.bucket = new SideBucket(connection, ledgerBucket, "schedules", replicas);
    }

    @Override
    public Optional<Mark> mark(String name) throws IOException {
        return read(name + ".mark").map(e -> decode(e.getValue()));
    }

    @Override
    public void advance(String name, Mark mark) throws IOException {
        String key = name + ".mark";
        byte[] value = encode(mark);
        for (;;) {
            Optional<KeyValueEntry> now = read(key);
            if (now.isPresent() && !decode(now.get().getValue()).through().isBefore(mark.through())) {
                return;
            }
            try {
                NatsCalls.guarded("moving the mark of schedule " + name, () -> now.isPresent()
                        ? kv().update(key, value, now.get().getRevision())
                        : kv().create(key, value));
                return;
            } catch (JetStreamApiException e) {
                if (e.getApiErrorCode() != Ledger.WRONG_LAST_SEQUENCE) {
                    throw new IOException("the mark of schedule " + name + " could not be written: " + e.getMessage(), e);
                }
                // Another instance moved it meanwhile: look again, and keep the later of the two.
            }
        }
    }

    @Override
    public Optional<Pause> pause(String name) throws IOException {
        return read(name + ".pause").map(e -> ScheduleBookText.pause(new String(e.getValue(), StandardCharsets.UTF_8)));
    }

    @Override
    public void setPause(String name, Pause pause) throws IOException {
        try {
            NatsCalls.guarded("pausing or resuming schedule " + name,
                    () -> kv().put(name + ".pause", ScheduleBookText.of(pause).getBytes(StandardCharsets.UTF_8)));
        } catch (JetStreamApiException e) {
            throw new IOException("the pause of schedule " + name + " could not be written: " + e.getMessage(), e);
        }
    }

    private Optional<KeyValueEntry> read(String key) throws IOException {
        return bucket.read(key);
    }

    private KeyValue kv() throws IOException, JetStreamApiException {
        return bucket.kv();
    }

    private static byte[] encode(Mark mark) {
        return ("through=" + mark.through() + "\n" + ScheduleBookText.of(mark.lastFired())).getBytes(StandardCharsets.UTF_8);
    }

    private static Mark decode(byte[] value) {
        String text = new String(value, StandardCharsets.UTF_8);
        String first = text.lines().findFirst().orElse("");
        if (!first.startsWith("through=")) {
            throw new IllegalStateException("a schedule's mark without its 'through=' line: " + first);
        }
        return new Mark(Instant.parse(first.substring("through=".length())), ScheduleBookText.fired(text));
    }
}
