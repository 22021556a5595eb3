package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ItemState;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ledger's watch on a real nats-server: it rings for what became pending, and for nothing else. */
class JetStreamArrivalWatchTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private final DrivenClock clock = new DrivenClock();
    private Connection enqueuer;
    private Connection watcher;
    private JetStreamItemStore store;
    private JetStreamSpool spool;
    private JetStreamArrivalWatch watch;
    private final List<String> rung = new CopyOnWriteArrayList<>();
    private String bucket;

    @BeforeEach
    void open() throws Exception {
        bucket = "watched-" + ProcessHandle.current().pid() + "-" + ++buckets;
        enqueuer = Nats.connect(NATS.server().url());
        watcher = Nats.connect(NATS.server().url());
        Ledger ledger = new Ledger(enqueuer, bucket, 1);
        Payloads payloads = new Payloads(enqueuer, bucket + "-payloads", 1, 1024);
        spool = new JetStreamSpool(ledger, payloads, clock, "a");
        store = new JetStreamItemStore(ledger, payloads, spool, new LeaseTerms(Duration.ofSeconds(120), 3,
                Duration.ofSeconds(10)), clock, InstanceRig.TMP_MAX_AGE);
        watch = new JetStreamArrivalWatch(new Ledger(watcher, bucket, 1)); // another instance's watch
        assertTrue(watch.start(rung::add, () -> { }));
    }

    @AfterEach
    void close() throws InterruptedException {
        watch.close();
        enqueuer.close();
        watcher.close();
    }

    @Test
    void anEnqueueAndAHandBackRingAndOtherMovesDoNot() throws Exception {
        store.enqueue("one", new ByteArrayInputStream(new byte[] {1}), 1024);
        Await.until("the watch rings for one", Duration.ofSeconds(10), () -> rung.contains("one"));
        ClaimName claim = spool.claim("one", clock.now()).orElseThrow();
        assertTrue(spool.restamp(claim, claim.renewedAt(clock.now().plusSeconds(40))));
        assertTrue(spool.handBack(claim.renewedAt(clock.now().plusSeconds(40))));
        Await.until("it rings again for the hand-back", Duration.ofSeconds(10), () -> rung.size() == 2);
        ClaimName again = spool.claim("one", clock.now()).orElseThrow();
        assertTrue(spool.settle(again, ItemState.DONE));
        store.enqueue("two", new ByteArrayInputStream(new byte[] {2}), 1024); // a marker: updates come in order
        Await.until("the watch rings for two", Duration.ofSeconds(10), () -> rung.contains("two"));
        assertEquals(List.of("one", "one", "two"), rung, "the claims, the renewal and the settle rang nothing");
    }

    @Test
    void aClosedWatchRingsNoMore() throws Exception {
        watch.close();
        store.enqueue("late", new ByteArrayInputStream(new byte[0]), 1024);
        JetStreamArrivalWatch second = new JetStreamArrivalWatch(new Ledger(watcher, bucket, 1));
        List<String> seen = new CopyOnWriteArrayList<>();
        assertTrue(second.start(seen::add, () -> { }));
        store.enqueue("marker", new ByteArrayInputStream(new byte[0]), 1024);
        Await.until("a new watch sees the marker", Duration.ofSeconds(10), () -> seen.contains("marker"));
        second.close();
        assertEquals(List.of(), rung, "the closed watch rang for neither");
    }
}
