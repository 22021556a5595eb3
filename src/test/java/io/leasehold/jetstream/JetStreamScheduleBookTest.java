package io.leasehold.jetstream;

import io.leasehold.spool.ScheduleBookContract;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The contract on a real nats-server: two connections, as two instances, on a fresh bucket per test. */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class JetStreamScheduleBookTest extends ScheduleBookContract {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static final java.util.concurrent.atomic.AtomicInteger BUCKETS = new java.util.concurrent.atomic.AtomicInteger();
    private Connection one;
    private Connection two;

    @BeforeEach
    void open() throws Exception {
        one = Nats.connect(NATS.server().url());
        two = Nats.connect(NATS.server().url());
        String ledger = "sched-" + ProcessHandle.current().pid() + "-" + BUCKETS.incrementAndGet();
        book = new JetStreamScheduleBook(one, ledger, 1);
        other = new JetStreamScheduleBook(two, ledger, 1);
    }

    @AfterEach
    void close() throws InterruptedException {
        one.close();
        two.close();
    }
}
