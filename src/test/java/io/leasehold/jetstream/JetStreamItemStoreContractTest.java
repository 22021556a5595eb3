package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.HolderTag;
import io.leasehold.spool.ClaimAges;
import io.leasehold.spool.StateCountsContract;
import io.leasehold.spool.ItemStore;
import io.leasehold.testing.Await;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The item store contract, scheduling and history, the counts per state, and the running claims' ages (kept by the ledger's
 * picture), on a real nats-server, a fresh ledger and payload bucket per test.
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class JetStreamItemStoreContractTest extends StateCountsContract {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private Connection connection;
    private Ledger ledger;
    private String bucket;

    @BeforeEach
    void open() throws Exception {
        connection = Nats.connect(NATS.server().url());
        bucket = "store-" + ProcessHandle.current().pid() + "-" + ++buckets;
        ledger = new Ledger(connection, bucket, 1);
        Payloads payloads = new Payloads(connection, bucket + "-payloads", 1, MAX);
        JetStreamSpool jetStreamSpool = new JetStreamSpool(ledger, payloads, clock, "a");
        spool = jetStreamSpool;
        JetStreamItemStore jetStreamStore = new JetStreamItemStore(ledger, payloads, jetStreamSpool, TERMS, clock,
                InstanceRig.TMP_MAX_AGE);
        store = jetStreamStore;
        outputs = jetStreamStore.outputs();
        theirs = new JetStreamSpool(ledger, payloads, clock, "b", HolderTag.of("their-host", 42));
    }

    @AfterEach
    void close() throws InterruptedException {
        connection.close();
    }

    /** A scrape's reads never start the picture (its watch and first look call the server), nor fail without it. */
    @Test
    void aScrapeBeforeThePictureIsStartedMakesNoCall() throws Exception {
        Ledger fresh = new Ledger(connection, bucket + "-fresh", 1);
        Payloads payloads = new Payloads(connection, bucket + "-fresh-payloads", 1, MAX);
        JetStreamItemStore unstarted = new JetStreamItemStore(fresh, payloads,
                new JetStreamSpool(fresh, payloads, clock, "a"), TERMS, clock, InstanceRig.TMP_MAX_AGE);
        unstarted.countsNow();
        unstarted.claimAgesNow(TERMS.lease());
        assertTrue(fresh.mirrorIfStarted().isEmpty(), "the scrape started the picture");
        connection.close(); // any call now throws: the reads make none
        assertEquals(0, unstarted.countsNow().claimed());
        assertEquals(ClaimAges.NONE, unstarted.claimAgesNow(TERMS.lease()));
        assertTrue(fresh.mirrorIfStarted().isEmpty());
    }

    /** Once the watch has delivered all the stream holds (own writes show at once; this waits for no other). */
    @Override
    protected ClaimAges seen(Duration bound) throws IOException {
        long last = ledger.lastSequence();
        MirrorCopy copy = ledger.mirror().copy();
        Await.until("the watch delivers up to " + last, Duration.ofSeconds(10), () -> copy.delivered() >= last);
        return store.claimAgesNow(bound);
    }

    /** Ages count on the enqueuer's clock (the directory dates items by their files' write times instead). */
    @Test
    void theOldestPendingAgeCountsFromItsEnqueueOnTheClock() throws IOException {
        store.enqueue("aged", new ByteArrayInputStream(new byte[0]), MAX);
        clock.advance(Duration.ofSeconds(90));
        store.enqueue("young", new ByteArrayInputStream(new byte[0]), MAX);
        assertEquals(90_000, store.counts().oldestPendingAgeMs());
        assertEquals(90_000, store.countsNow().oldestPendingAgeMs(), "as of the last count");
    }

    /**
     * A payload of up to the inline limit is kept in the entry: the enqueue is the reservation and the
     * move to pending (two writes to the ledger, no object), the claim reads it without an object, and the
     * picture in memory does not hold it. One byte more and it is an object, read back the same.
     */
    @Test
    void aPayloadUpToTheInlineLimitIsOneWriteAndOneByteMoreIsAnObject() throws Exception {
        byte[] small = payloadOf(LedgerEntry.INLINE_MAX);
        byte[] large = payloadOf(LedgerEntry.INLINE_MAX + 1);
        // Counted in the streams, not in the connection's messages sent: the ledger's watch on the same
        // connection answers the server's flow control now and then, which a busy machine makes likelier.
        long entries = streamMessages("KV_" + bucket);
        long chunks = streamMessages("OBJ_" + bucket + "-payloads");
        store.enqueue("small", new ByteArrayInputStream(small), MAX);
        assertEquals(2, streamMessages("KV_" + bucket) - entries, "the reservation and the move, nothing else");
        assertEquals(chunks, streamMessages("OBJ_" + bucket + "-payloads"), "no object for the small one");
        store.enqueue("large", new ByteArrayInputStream(large), MAX);

        assertEquals(null, ledger.read("small").orElseThrow().entry().payload(), "no object for the small one");
        assertEquals(0, connection.objectStore(bucket + "-payloads").getList().stream()
                .filter(o -> o.getObjectName().startsWith("small/")).count());
        assertEquals(1, connection.objectStore(bucket + "-payloads").getList().stream()
                .filter(o -> o.getObjectName().startsWith("large/") && !o.isDeleted()).count());
        assertArrayEquals(small, spool.payload(spool.claim("small", clock.now()).orElseThrow()).orElseThrow());
        assertArrayEquals(large, spool.payload(spool.claim("large", clock.now()).orElseThrow()).orElseThrow());
        var claimed = ledger.mirror().copy().inState("claimed", 10, g -> true);
        assertEquals(2, claimed.size(), "both claims in the picture");
        claimed.forEach(g -> assertEquals(null, g.entry().inline(), "the picture keeps no payload"));
    }

    /** Every message the stream has taken, kept or since removed: its last sequence number. */
    private long streamMessages(String stream) throws Exception {
        return connection.jetStreamManagement().getStreamInfo(stream).getStreamState().getLastSequence();
    }

    @Test
    void aLimitBelowTheInlineOneRefusesOneByteMoreAndKeepsNothing() throws Exception {
        long limit = 100;
        assertThrows(ItemStore.PayloadTooLargeException.class,
                () -> store.enqueue("big", new ByteArrayInputStream(payloadOf(101)), limit));
        assertTrue(ledger.read("big").isEmpty());
        store.enqueue("fits", new ByteArrayInputStream(payloadOf(100)), limit);
        assertArrayEquals(payloadOf(100), spool.payload(spool.claim("fits", clock.now()).orElseThrow()).orElseThrow());
    }

    private static byte[] payloadOf(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }
}
