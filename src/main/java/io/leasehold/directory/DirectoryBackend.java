package io.leasehold.directory;

import io.leasehold.clock.TickingClock;
import io.leasehold.core.HolderTag;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.Anomaly;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.SpoolBackend;
import io.leasehold.spool.SpoolUpkeep;
import java.io.IOException;
import java.util.List;

/** The directory spool's adapters on one spool directory: the twin of the JetStream backend. */
public final class DirectoryBackend implements SpoolBackend {

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies = new SpoolAnomalies();
    private final PosixSpool spool;
    private final PosixItemStore store;
    private final PosixSpoolUpkeep upkeep;
    private final DirectoryScheduleBook schedules;
    private final DirectoryDrainSwitch drainSwitch;
    private final DirectoryOutputs outputs;

    /**
     * The adapters on the spool under {@code layout}, whose folders its upkeep makes at start when missing;
     * payloads are never read past {@code maxBytes}, and {@code tag} names this process in its claims.
     */
    public DirectoryBackend(SpoolLayout layout, TickingClock clock, LeaseTerms terms, long maxBytes, HolderTag tag,
            DirectorySync sync) {
        this(layout, clock, terms, maxBytes, tag, sync, DirectoryOptions.DEFAULTS);
    }

    /** @param options how files are written: reservations by links, settlements by Linux's own calls */
    public DirectoryBackend(SpoolLayout layout, TickingClock clock, LeaseTerms terms, long maxBytes, HolderTag tag,
            DirectorySync sync, DirectoryOptions options) {
        this.layout = layout;
        this.spool = new PosixSpool(layout, anomalies, clock, maxBytes, tag, options);
        this.store = new PosixItemStore(layout, spool, terms, clock, sync);
        this.upkeep = new PosixSpoolUpkeep(layout, spool, store);
        this.schedules = new DirectoryScheduleBook(layout);
        this.drainSwitch = new DirectoryDrainSwitch(layout);
        this.outputs = new DirectoryOutputs(layout);
    }

    /** Whether claims leave claimed/ by one renameat2 (Java 22+, leasehold.spool.linux-calls), else by link and unlink. */
    public boolean settlesByRename() {
        return spool.settlesByRename();
    }

    public SpoolLayout layout() {
        return layout;
    }

    @Override
    public PosixSpool spool() {
        return spool;
    }

    @Override
    public PosixItemStore store() {
        return store;
    }

    @Override
    public SpoolUpkeep upkeep() {
        return upkeep;
    }

    @Override
    public DirectoryScheduleBook schedules() {
        return schedules;
    }

    @Override
    public DirectoryDrainSwitch drainSwitch() {
        return drainSwitch;
    }

    @Override
    public DirectoryOutputs outputs() {
        return outputs;
    }

    @Override
    public ArrivalWatch arrivals() {
        return new NioArrivalWatch(layout);
    }

    @Override
    public List<Anomaly> anomalies() {
        return anomalies.list();
    }

    /** pending/ and claimed/, read as a drain reads them, which is where entries that are not items are found. */
    @Override
    public void lookForAnomalies() throws IOException {
        spool.pendingBatch(Integer.MAX_VALUE);
        spool.claims();
    }

    @Override
    public void close() {
        store.close(); // its recount thread and ticks
    }
}
