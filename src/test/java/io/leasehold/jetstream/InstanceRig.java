package io.leasehold.jetstream;

import io.leasehold.core.Clock;
import io.leasehold.core.LeaseTerms;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;

/** One instance's JetStream adapters on a connection of their own (reconnecting), for tests. */
final class InstanceRig implements AutoCloseable {

    /** The default {@code leasehold.spool.tmp-max-age}. */
    static final Duration TMP_MAX_AGE = Duration.ofHours(1);
    static final LeaseTerms TERMS = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));

    final Connection connection;
    final Ledger ledger;
    final Payloads payloads;
    final JetStreamSpool spool;
    final JetStreamItemStore store;

    private InstanceRig(Connection connection, String bucket, long maxBytes, Clock clock, String instance)
            throws Exception {
        this.connection = connection;
        this.ledger = new Ledger(connection, bucket, 1);
        this.payloads = new Payloads(connection, bucket + "-payloads", 1, maxBytes);
        this.spool = new JetStreamSpool(ledger, payloads, clock, instance);
        this.store = new JetStreamItemStore(ledger, payloads, spool, TERMS, clock, TMP_MAX_AGE);
    }

    /** The ledger {@code bucket} (and its payload bucket) on the server at {@code url}, made when missing. */
    static InstanceRig open(String url, String bucket, long maxBytes, Clock clock, String instance) throws Exception {
        Options reconnecting = new Options.Builder().server(url).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(100)).build();
        return new InstanceRig(Nats.connect(reconnecting), bucket, maxBytes, clock, instance);
    }

    @Override
    public void close() throws InterruptedException {
        ledger.close();
        connection.close();
    }
}
