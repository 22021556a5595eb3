package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ItemStoreContract;
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

/** The item store contract on a real nats-server, a fresh ledger and payload bucket per test. */
class JetStreamItemStoreContractTest extends ItemStoreContract {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private Connection connection;

    @BeforeEach
    void open() throws Exception {
        connection = Nats.connect(NATS.server().url());
        String bucket = "store-" + ProcessHandle.current().pid() + "-" + ++buckets;
        Ledger ledger = new Ledger(connection, bucket, 1);
        Payloads payloads = new Payloads(connection, bucket + "-payloads", 1, MAX);
        JetStreamSpool jetStreamSpool = new JetStreamSpool(ledger, payloads, clock, "a");
        spool = jetStreamSpool;
        store = new JetStreamItemStore(ledger, payloads, jetStreamSpool,
                new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10)), clock);
    }

    @AfterEach
    void close() throws InterruptedException {
        connection.close();
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
}
