package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.ItemState;
import io.leasehold.spool.StagedBatch;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.JetStream;
import io.nats.client.api.PublishAck;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The ledger's picture (LedgerMirror) is rebuilt only when it must be, and a rebuild or a second end of
 * data never ends the watch that answers: each on a real nats-server.
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class LedgerMirrorRebuildTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private final DrivenClock clock = new DrivenClock();
    private String bucket;
    private InstanceRig me;
    private InstanceRig they;

    @BeforeEach
    void open() throws Exception {
        bucket = "review-" + ProcessHandle.current().pid() + "-" + ++buckets;
        me = InstanceRig.open(NATS.server().url(), bucket, 1 << 20, clock, "me");
        they = InstanceRig.open(NATS.server().url(), bucket, 1 << 20, clock, "they");
    }

    @AfterEach
    void close() throws Exception {
        me.close();
        they.close();
    }

    /**
     * A batch's last write is the removal of its marker, a ledger key no item maps to; the watch delivers it
     * but {@code Feed.watch} returns before it counts it as delivered. When nothing else is written after the
     * batch, the next check but one finds the watch "behind" the stream's last sequence and rebuilds: a whole
     * new watch and a full read of the ledger (and the drain told it missed arrivals), for a healthy watch.
     */
    @Test
    void aHealthyWatchIsNotRebuiltBecauseABatchEndedWithItsMarker() throws Exception {
        LedgerMirror mirror = me.ledger.mirror();
        mirror.copy(); // whole
        try (StagedBatch batch = me.store.stageBatch(1024)) {
            for (int line = 1; line <= 2; line++) {
                try (OutputStream out = batch.payload(line, "b" + line)) {
                    out.write("x".getBytes());
                }
                batch.item(line, "b" + line);
            }
            batch.commit();
        }
        long last = me.ledger.lastSequence();
        // The batch's last write is the marker's removal: the watch must count it as delivered.
        Await.until("the watch delivered everything, the marker's removal included", Duration.ofSeconds(20),
                () -> copyDelivered(mirror) >= last);
        mirror.check();
        Object feed = field(mirror, "newest");
        mirror.check(); // what housekeeping does a minute later, nothing written in between
        assertSame(feed, field(mirror, "newest"), "a watch that delivered everything was made afresh");
    }

    /**
     * A rebuild that overtakes a picture still filling (reconnects in a row, a RECONNECTED beside a check)
     * leaves the overtaken watch running: it goes on reading the whole ledger into a copy nobody will read,
     * with a dispatcher thread of its own, and is only ended if its initial values ever end. A watch whose
     * initial values stopped (the very case check() rebuilds for) is never ended at all.
     */
    @Test
    void aRebuildEndsTheFillingPictureItOvertakes() throws Exception {
        seed(20_000);
        LedgerMirror mirror = me.ledger.mirror();
        mirror.copy(); // whole: one watch
        int before = dispatchers();
        mirror.rebuild("first");
        mirror.rebuild("second");
        mirror.rebuild("third");
        int during = dispatchers();
        assertTrue(during - before <= 1, "the picture answering and the newest one only; watches open beyond "
                + "the one before: " + (during - before));
    }

    /**
     * jnats may call endOfData twice: on the subscribing thread when the consumer reported nothing pending
     * (an empty ledger, e.g. a fresh deployment) and on the dispatcher from a message's delta 0, guarded only
     * by a plain boolean written by the one and read by the other. A second endOfData makes {@code whole()}
     * take the answering feed for an overtaken one and end its own watch: from then on nothing another
     * instance writes shows here, until two checks later.
     */
    @Test
    void aSecondEndOfDataDoesNotEndTheAnsweringWatch() throws Exception {
        LedgerMirror mirror = me.ledger.mirror();
        mirror.copy();
        Object answering = field(mirror, "answering");
        Method endOfData = answering.getClass().getDeclaredMethod("endOfData");
        endOfData.setAccessible(true);
        endOfData.invoke(answering);
        they.store.enqueue("theirs", new ByteArrayInputStream("x".getBytes()), 1024);
        Await.until("their enqueue shown here", Duration.ofSeconds(5), () -> listed("theirs"));
    }

    private boolean listed(String id) {
        try {
            return me.store.list(ItemState.PENDING, 10).stream().anyMatch(v -> v.id().equals(id));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Writes {@code n} pending entries straight into the ledger's stream, as many enqueues would. */
    private void seed(int n) throws Exception {
        JetStream js = me.connection.jetStream();
        List<CompletableFuture<PublishAck>> acks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] value = LedgerJson.encode(LedgerEntry.enqueued(clock.now(), "seed-" + i + "/p"));
            acks.add(js.publishAsync("$KV." + bucket + "." + LedgerKeys.key("seed-" + i), value));
        }
        for (CompletableFuture<PublishAck> ack : acks) {
            ack.get();
        }
    }

    private int dispatchers() throws Exception {
        Method m = Class.forName("io.nats.client.impl.NatsConnection").getDeclaredMethod("getDispatchers");
        m.setAccessible(true);
        return ((Map<?, ?>) m.invoke(me.connection)).size();
    }

    private static long copyDelivered(LedgerMirror mirror) {
        try {
            return mirror.copy().delivered();
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    private static Object field(Object of, String name) throws Exception {
        Field f = of.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(of);
    }
}
