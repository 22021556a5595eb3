package io.leasehold.jetstream;

import io.leasehold.spool.SpoolUpkeep;
import io.leasehold.spool.Staleness;
import io.nats.client.Connection;
import java.io.IOException;
import java.time.Duration;

/**
 * The upkeep of a JetStream spool. Its buckets are made when the backend opens; opening and each tidy
 * finish the batches a crash left half-way, and each tidy checks that the ledger's watch still delivers
 * ({@link LedgerMirror#check()}); each sweep (once per {@code spool.tmp-max-age}) removes the delete
 * markers of purged items and the payload objects no entry names ({@link OrphanPayloads}).
 */
final class JetStreamUpkeep implements SpoolUpkeep {

    private final Connection connection;
    private final Ledger ledger;
    private final JetStreamItemStore store;
    private final OrphanPayloads orphans;
    private final String where;

    JetStreamUpkeep(Connection connection, Ledger ledger, JetStreamItemStore store, OrphanPayloads orphans,
            String servers) {
        this.connection = connection;
        this.orphans = orphans;
        this.ledger = ledger;
        this.store = store;
        this.where = "bucket " + ledger.bucket() + " on " + servers;
    }

    @Override
    public int open(Staleness staleness, Duration recountEvery) throws IOException {
        return store.recover(staleness);
    }

    @Override
    public int tidy(Staleness staleness, boolean sweep) throws IOException {
        ledger.mirror().check();
        int finished = store.recover(staleness);
        if (sweep) {
            ledger.purgeDeletes();
            store.outputs().purgeMarkers(); // each dropped output leaves one: they would pile up for ever
            finished += orphans.sweep();
        }
        return finished;
    }

    @Override
    public boolean usable() {
        return connection.getStatus() == Connection.Status.CONNECTED;
    }

    @Override
    public String where() {
        return where;
    }
}
