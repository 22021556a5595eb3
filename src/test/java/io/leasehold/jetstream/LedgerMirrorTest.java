package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.SpoolCounts;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.NatsServer;
import io.nats.client.Connection;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ledger's picture in memory on a real nats-server of the test's own (it is restarted): counts and
 * listings ask the server nothing, another instance's moves show after the watch's lag, and a server
 * restart makes the picture afresh, so what was written while the old watch was gone still shows.
 */
class LedgerMirrorTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private final DrivenClock clock = new DrivenClock();
    private NatsServer nats;
    private InstanceRig me;
    private Connection mine;
    private Connection theirs;
    private Ledger myLedger;
    private JetStreamItemStore myStore;
    private JetStreamSpool mySpool;
    private InstanceRig they;
    private JetStreamItemStore theirStore;

    @BeforeEach
    void open() throws Exception {
        nats = NatsServer.start();
        me = InstanceRig.open(nats.url(), "mirrored", 1024, clock, "mine");
        they = InstanceRig.open(nats.url(), "mirrored", 1024, clock, "theirs");
        mine = me.connection;
        theirs = they.connection;
        myLedger = me.ledger;
        mySpool = me.spool;
        myStore = me.store;
        theirStore = they.store;
    }

    @AfterEach
    void close() throws Exception {
        me.close();
        they.close();
        nats.close();
    }

    private static ByteArrayInputStream body(String text) {
        return new ByteArrayInputStream(text.getBytes());
    }

    @Test
    void countsAndListingsAskTheServerNothingOnceThePictureIsWhole() throws Exception {
        for (int i = 0; i < 120; i++) {
            myStore.enqueue(String.format("item-%03d", i), body("x"), 1024);
            clock.advance(Duration.ofMillis(1));
        }
        assertEquals(120, myStore.counts().pending());
        long sent = mine.getStatistics().getOutMsgs();

        SpoolCounts counts = myStore.counts();
        List<ItemView> first = myStore.list(ItemState.PENDING, 5);
        List<String> batch = mySpool.pendingBatch(3);
        int claims = mySpool.claims().size();

        assertEquals(sent, mine.getStatistics().getOutMsgs(), "no request for counts, listings or the drain's look");
        assertEquals(120, counts.pending());
        assertEquals(List.of("item-000", "item-001", "item-002", "item-003", "item-004"),
                first.stream().map(ItemView::id).toList(), "oldest first");
        assertEquals(List.of("item-000", "item-001", "item-002"), batch);
        assertEquals(0, claims);
    }

    @Test
    void anotherInstancesEnqueueAndPurgeShowAfterTheWatchsLag() throws Exception {
        assertEquals(0, myStore.counts().pending()); // the picture is whole before they write
        theirStore.enqueue("theirs-1", body("x"), 1024);
        Await.until("their enqueue listed here", DEADLINE, () -> listed("theirs-1", ItemState.PENDING));
        theirStore.cancel("theirs-1");
        Await.until("their cancel listed here", DEADLINE, () -> listed("theirs-1", ItemState.FAILED));
        assertTrue(theirStore.purge("theirs-1", ItemState.FAILED));
        Await.until("their purge shown here", DEADLINE, () -> myStore.countsNow().failed() == 0
                && !listed("theirs-1", ItemState.FAILED));
    }

    @Test
    void aServerRestartMakesThePictureAfreshAndWhatWasWrittenMeanwhileShows() throws Exception {
        myStore.enqueue("before", body("x"), 1024);
        assertEquals(1, myStore.counts().pending());
        AtomicInteger rebuilt = new AtomicInteger();
        myLedger.mirror().onRebuilt(rebuilt::incrementAndGet);

        nats.restart();
        // Written by them as soon as they are back, before this instance's new watch may be up.
        Await.until("their connection back", DEADLINE, () -> theirs.getStatus() == Connection.Status.CONNECTED);
        theirStore.enqueue("after", body("x"), 1024);
        assertTrue(cancelAndPurge("before"));

        Await.until("a new picture after the restart", DEADLINE, () -> rebuilt.get() > 0);
        Await.until("what they wrote meanwhile shown here: theirs pending, the purged one gone", DEADLINE,
                () -> listed("after", ItemState.PENDING) && countsAre(new SpoolCounts(1, 0, 0, 0, 0, 0, 0)));
    }

    private boolean countsAre(SpoolCounts expected) {
        try {
            return myStore.counts().equals(expected);
        } catch (Exception e) {
            return false; // the server restarting: ask again
        }
    }

    @Test
    void aWatchWhoseConsumerVanishedIsMadeAfreshByTheChecks() throws Exception {
        assertEquals(0, myStore.counts().pending());
        var jsm = theirs.jetStreamManagement();
        for (String consumer : jsm.getConsumerNames("KV_mirrored")) {
            jsm.deleteConsumer("KV_mirrored", consumer); // the server forgets this instance's watch
        }
        theirStore.enqueue("unseen", body("x"), 1024);
        // Within 5 s: jnats's ordered consumer makes its own consumer afresh after missing heartbeats (about
        // 14 s here), so a longer wait would pass with checks that do nothing.
        Await.until("shown after housekeeping's checks", Duration.ofSeconds(5), () -> {
            try {
                myLedger.mirror().check(); // what each housekeeping does
            } catch (Exception e) {
                return false;
            }
            return listed("unseen", ItemState.PENDING);
        });
    }

    private boolean cancelAndPurge(String id) throws Exception {
        theirStore.cancel(id);
        return theirStore.purge(id, ItemState.FAILED);
    }

    private boolean listed(String id, ItemState state) {
        try {
            return myStore.list(state, 100).stream().anyMatch(v -> v.id().equals(id));
        } catch (Exception e) {
            return false; // the server restarting: ask again
        }
    }
}
