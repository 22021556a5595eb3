package io.leasehold.jetstream;

import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.DrainSwitchContract;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The contract on a real nats-server: two connections, as two instances, on a fresh bucket per test. */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class JetStreamDrainSwitchTest extends DrainSwitchContract {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static final AtomicInteger BUCKETS = new AtomicInteger();
    private Connection a;
    private Connection b;
    private Connection c;
    private String ledger;

    @BeforeEach
    void open() throws Exception {
        a = Nats.connect(NATS.server().url());
        b = Nats.connect(NATS.server().url());
        ledger = "switch-" + ProcessHandle.current().pid() + "-" + BUCKETS.incrementAndGet();
        one = new JetStreamDrainSwitch(a, ledger, 1);
        other = new JetStreamDrainSwitch(b, ledger, 1);
    }

    @Override
    protected DrainSwitch reopened() throws Exception {
        c = Nats.connect(NATS.server().url());
        return new JetStreamDrainSwitch(c, ledger, 1);
    }

    /** A fleet polling every second, or a read-only look, makes no bucket: only a pause does. */
    @org.junit.jupiter.api.Test
    void aReadMakesNoBucketAndTheFirstPauseMakesIt() throws Exception {
        org.junit.jupiter.api.Assertions.assertEquals(java.util.Optional.empty(), one.pause());
        org.junit.jupiter.api.Assertions.assertFalse(a.keyValueManagement().getBucketNames().contains(ledger + "-control"));
        one.setPause(new io.leasehold.spool.Pause(true, T, "api"));
        org.junit.jupiter.api.Assertions.assertTrue(a.keyValueManagement().getBucketNames().contains(ledger + "-control"));
        org.junit.jupiter.api.Assertions.assertTrue(other.pause().orElseThrow().paused(), "a reader that looked before finds it now");
    }

    @AfterEach
    void close() throws InterruptedException {
        a.close();
        b.close();
        if (c != null) {
            c.close();
        }
    }
}
