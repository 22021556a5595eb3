package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.spool.ItemState;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import io.nats.client.Nats;
import io.nats.client.ObjectStore;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.ObjectInfo;
import java.io.ByteArrayOutputStream;
import io.leasehold.testing.DrivenClock;
import io.quarkus.arc.Arc;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * {@link SpoolProbe} of the JetStream spool: the ledger and payload buckets read on a connection of the
 * test's own (as {@code nats kv get} would), never through the service's picture in memory.
 */
final class JetStreamProbe implements SpoolProbe {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> ITEM_STATES = Set.of("pending", "claimed", "done", "failed");

    private final String url;
    private final String bucket;
    private Connection connection;

    JetStreamProbe() {
        Config config = ConfigProvider.getConfig();
        url = config.getValue("leasehold.nats.url", String.class);
        bucket = config.getValue("leasehold.spool.jetstream.bucket", String.class);
    }

    private interface Read<T> {
        T from(KeyValue ledger, ObjectStore payloads) throws Exception;
    }

    /** On one connection for the test, opened at the first read. */
    private <T> T read(Read<T> read) throws IOException {
        try {
            if (connection == null) {
                connection = Nats.connect(url);
            }
            return read.from(connection.keyValue(bucket), connection.objectStore(bucket + "-payloads"));
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("reading the buckets of " + bucket + ": " + e, e);
        }
    }

    /**
     * The test's nats-server is new, so the service waits max-skew and then a full duration before it
     * takes the lease (a new store may be a wiped one: docs/lease.md). The clock is driven: move it on
     * until the lease is held, one renew-every at a time, each tick run to its end.
     */
    private static void awaitLeaseHeld() {
        Config config = ConfigProvider.getConfig();
        Duration every = config.getValue("leasehold.lease.renew-every", Duration.class);
        Duration bound = config.getValue("leasehold.claim.max-skew", Duration.class)
                .plus(config.getValue("leasehold.lease.duration", Duration.class)).plus(every.multipliedBy(4));
        DrivenClock clock = Arc.container().instance(DrivenClock.class).get();
        for (Duration moved = Duration.ZERO; !leaseHeld(); moved = moved.plus(every)) {
            assertTrue(moved.compareTo(bound) <= 0, "the lease is not held after " + moved + " of driven time: "
                    + given().get("/lease").asString());
            clock.advance(every); // returns once the ticks that fell due have run to their end
        }
    }

    private static boolean leaseHeld() {
        return "held".equals(given().get("/lease").jsonPath().getString("mode"));
    }

    /** An id as a ledger key: each '.' written =2E (LedgerKeys). */
    private static String key(String id) {
        return id.replace(".", "=2E");
    }

    @Override
    public void startClean() {
        awaitLeaseHeld();
        given().queryParam("budget", "20s").when().post("/drain").then().statusCode(200).body("idle", equalTo(true));
    }

    @Override
    public byte[] payloadIn(ItemState state, String id) throws IOException {
        return read((ledger, payloads) -> {
            KeyValueEntry found = ledger.get(key(id));
            assertTrue(found != null && found.getValue() != null, "no ledger entry of " + id);
            JsonNode entry = JSON.readTree(found.getValue());
            assertEquals(state.label(), entry.path("state").asText(), id + ": " + entry);
            if (entry.hasNonNull("inline")) {
                return Base64.getDecoder().decode(entry.get("inline").asText());
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            payloads.get(entry.path("payload").asText(), out);
            return out.toByteArray();
        });
    }

    @Override
    public List<String> holdings() throws IOException {
        return read((ledger, payloads) -> {
            List<String> all = new ArrayList<>();
            for (String k : ledger.keys()) {
                KeyValueEntry e = ledger.get(k);
                all.add("key " + k + " @" + (e == null ? "gone" : e.getRevision()));
            }
            for (ObjectInfo info : payloads.getList()) {
                if (!info.isDeleted()) {
                    all.add("object " + info.getObjectName());
                }
            }
            return all.stream().sorted().toList();
        });
    }

    @Override
    public void assertNoStaging() throws IOException {
        read((ledger, payloads) -> {
            Set<String> named = new HashSet<>();
            for (String k : ledger.keys()) {
                KeyValueEntry found = ledger.get(k);
                JsonNode entry = JSON.readTree(found.getValue());
                // A batch's commit marker (=<batch>) lives only until all its items are pending.
                assertTrue(!k.startsWith("=") && ITEM_STATES.contains(entry.path("state").asText()),
                        "half made: " + k + " " + entry);
                if (entry.hasNonNull("payload")) {
                    named.add(entry.get("payload").asText());
                }
            }
            for (ObjectInfo info : payloads.getList()) {
                assertTrue(info.isDeleted() || named.contains(info.getObjectName()),
                        "a payload no entry names: " + info.getObjectName());
            }
            return null;
        });
    }

    @Override
    public void close() throws InterruptedException {
        if (connection != null) {
            connection.close();
        }
    }

    @Override
    public boolean isReserved(String id) throws IOException {
        return read((ledger, payloads) -> ledger.get(key(id)) != null);
    }
}
