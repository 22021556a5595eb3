package io.leasehold.jetstream;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.core.Clock;
import io.leasehold.core.HolderTag;
import io.leasehold.core.LeaseTerms;
import io.leasehold.lease.Holders;
import io.leasehold.nats.BusSettings;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsSettings;
import io.leasehold.spool.Anomaly;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.AttemptOutputs;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.ScheduleBook;
import io.leasehold.spool.Spool;
import io.leasehold.spool.SpoolBackend;
import io.leasehold.spool.SpoolUpkeep;
import io.nats.client.Connection;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** The JetStream spool's adapters on one connection: what the wiring hands the service's ports. */
public final class JetStreamBackend implements SpoolBackend {

    private final Connection connection;
    private final JetStreamSpool spool;
    private final JetStreamItemStore store;
    private final JetStreamUpkeep upkeep;
    private final Ledger ledger;
    private final JetStreamScheduleBook schedules;
    private final JetStreamDrainSwitch drainSwitch;

    private JetStreamBackend(Connection connection, Ledger ledger, JetStreamSpool spool, JetStreamItemStore store,
            JetStreamUpkeep upkeep, JetStreamScheduleBook schedules, JetStreamDrainSwitch drainSwitch) {
        this.schedules = schedules;
        this.drainSwitch = drainSwitch;
        this.connection = connection;
        this.ledger = ledger;
        this.spool = spool;
        this.store = store;
        this.upkeep = upkeep;
    }

    /**
     * Makes the ledger and payload buckets when missing ({@code replicas} copies each) and the adapters
     * on them; {@code instance} names this process as a claim's holder, {@code tag} in its claims' nonces. The connection is the backend's.
     */
    public static JetStreamBackend open(Connection connection, String servers, String bucket, int replicas,
            long maxBytes, Duration tmpMaxAge, Clock clock, LeaseTerms terms, String instance, HolderTag tag)
            throws IOException {
        Ledger ledger = new Ledger(connection, bucket, replicas);
        Payloads payloads = new Payloads(connection, bucket + "-payloads", replicas, maxBytes);
        JetStreamSpool spool = new JetStreamSpool(ledger, payloads, clock, instance, tag);
        JetStreamItemStore store = new JetStreamItemStore(ledger, payloads, spool, terms, clock, tmpMaxAge);
        return new JetStreamBackend(connection, ledger, spool, store,
                new JetStreamUpkeep(connection, ledger, store, new OrphanPayloads(ledger, payloads), servers),
                new JetStreamScheduleBook(connection, bucket, replicas),
                new JetStreamDrainSwitch(connection, bucket, replicas));
    }

    @Override
    public Spool spool() {
        return spool;
    }

    @Override
    public ItemStore store() {
        return store;
    }

    @Override
    public SpoolUpkeep upkeep() {
        return upkeep;
    }

    @Override
    public ScheduleBook schedules() {
        return schedules;
    }

    @Override
    public DrainSwitch drainSwitch() {
        return drainSwitch;
    }

    @Override
    public AttemptOutputs outputs() {
        return store.outputs();
    }

    /** A watch of the ledger for the drain; each call a new one, started and closed by the drain. */
    @Override
    public ArrivalWatch arrivals() {
        return new JetStreamArrivalWatch(ledger);
    }

    /** Nothing in a bucket can be a file that is not an item: every entry is written by leasehold. */
    @Override
    public List<Anomaly> anomalies() {
        return List.of();
    }

    @Override
    public void lookForAnomalies() {
    }

    @Override
    public void close() throws InterruptedException {
        ledger.close();
        connection.close();
    }

    /**
     * The JetStream spool of {@code config} for {@code instance} (a claim's holder), on a connection of its
     * own: the one way the service's wiring and the command line open it.
     */
    public static JetStreamBackend open(LeaseholdConfig config, Clock clock, LeaseTerms terms, String instance)
            throws IOException {
        // A URL is there: the start-up check (and command mode's) refuses the JetStream spool without one (RemoteRules).
        NatsSettings settings = BusSettings.of(config.nats(), instance + "-spool").orElseThrow();
        NatsBus bus;
        try {
            bus = NatsConnector.connect(settings);
        } catch (IOException e) {
            // The connector's line says why, not what: name the bus and its key, as the lease's commands do.
            throw new IOException("NATS at " + settings.safeUrls() + " (leasehold.nats.url) cannot be reached: "
                    + e.getMessage());
        }
        LeaseholdConfig.JetStreamSpoolConfig js = config.spool().jetstream();
        return open(bus.connection(), settings.safeUrls(), js.bucket(), js.replicas(),
                config.item().maxBytes().asLongValue(), config.spool().tmpMaxAge(), clock, terms, instance,
                Holders.tag());
    }
}
