package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.AttemptOutputsContract;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The contract on a real nats-server: two connections, as two instances, on a fresh bucket per test. */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class JetStreamOutputsTest extends AttemptOutputsContract {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static final AtomicInteger BUCKETS = new AtomicInteger();
    private Connection a;
    private Connection b;
    private String ledger;

    @BeforeEach
    void open() throws Exception {
        a = Nats.connect(NATS.server().url());
        b = Nats.connect(NATS.server().url());
        ledger = "outputs-" + ProcessHandle.current().pid() + "-" + BUCKETS.incrementAndGet();
        one = new JetStreamOutputs(a, ledger, 1);
        other = new JetStreamOutputs(b, ledger, 1);
    }

    /** A spool whose handler never showed anything, read and purged, has no outputs bucket. */
    @Test
    void readsAndPurgesMakeNoBucketAndTheFirstOutputMakesIt() throws Exception {
        assertEquals(Optional.empty(), one.read("item-1", 1));
        one.forget("item-1");
        assertFalse(a.keyValueManagement().getBucketNames().contains(ledger + "-outputs"));
        one.keep("item-1", output(1, "a"));
        assertTrue(a.keyValueManagement().getBucketNames().contains(ledger + "-outputs"));
        assertEquals("a", stdout(other, "item-1", 1), "a reader that looked before finds it");
    }

    /** Every dropped output leaves a purge marker; the upkeep's sweep removes them, so the bucket does not grow for ever. */
    @Test
    void droppedOutputsLeaveNoMarkersOnceTheUpkeepSwept() throws Exception {
        for (int i = 0; i < 50; i++) {
            one.keep("purged-" + i, output(1, "x"));
            one.keep("purged-" + i, output(2, "y"));
            one.forget("purged-" + i);
        }
        ((JetStreamOutputs) one).purgeMarkers();
        long left = a.jetStreamManagement().getStreamInfo("KV_" + ledger + "-outputs").getStreamState().getMsgCount();
        assertEquals(0, left, "messages left in the outputs bucket once every item's outputs were forgotten");
    }

    @AfterEach
    void close() throws InterruptedException {
        a.close();
        b.close();
    }
}
