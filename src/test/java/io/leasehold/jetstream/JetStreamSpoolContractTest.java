package io.leasehold.jetstream;

import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.SpoolContract;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The spool contract on a real nats-server (started by the test on a free port, its own store): two
 * instances, each with a connection of its own, on a fresh ledger and payload bucket per test.
 */
class JetStreamSpoolContractTest extends SpoolContract {

    private static final long MAX = 4L * 1024 * 1024;
    private static final LeaseTerms TERMS = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));
    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private Connection first;
    private Connection second;
    private JetStreamItemStore store;

    @BeforeEach
    void openSpools() throws Exception {
        String bucket = "items-" + ProcessHandle.current().pid() + "-" + ++buckets;
        first = connect();
        second = connect();
        Ledger ledger = new Ledger(first, bucket, 1);
        Payloads payloads = new Payloads(first, bucket + "-payloads", 1, MAX);
        JetStreamSpool spool = new JetStreamSpool(ledger, payloads, clock, "a");
        store = new JetStreamItemStore(ledger, payloads, spool, TERMS, clock);
        mine = spool;
        theirs = spool(second, bucket, "b");
    }

    @AfterEach
    void close() throws InterruptedException {
        first.close();
        second.close();
    }

    private static Connection connect() throws IOException, InterruptedException {
        return Nats.connect(new Options.Builder().server(NATS.server().url()).connectionTimeout(Duration.ofSeconds(5))
                .build());
    }

    private JetStreamSpool spool(Connection connection, String bucket, String instance) throws IOException {
        return new JetStreamSpool(new Ledger(connection, bucket, 1), new Payloads(connection, bucket + "-payloads", 1,
                MAX), clock, instance);
    }

    @Override
    protected void enqueue(String id, byte[] payload) throws IOException {
        store.enqueue(id, new ByteArrayInputStream(payload), MAX);
    }

    @Override
    protected Optional<String> state(String id) throws IOException {
        return store.lookup(id).map(ItemView::state);
    }
}
