package io.leasehold.spool;

import java.io.IOException;
import java.util.List;

/**
 * One backend's adapters of the spool's ports, opened together on one store (a directory, a JetStream
 * bucket) and closed together: what the service's wiring and the command line hand their callers.
 */
public interface SpoolBackend extends AutoCloseable {

    /** The drain's port. */
    Spool spool();

    /** The API's and the command line's port. */
    ItemStore store();

    /** Housekeeping: leftovers of stopped writers, retention, the store's own health. */
    SpoolUpkeep upkeep();

    /** What the spool keeps per recurring schedule: marks and pauses, for the whole fleet. */
    ScheduleBook schedules();

    /** Whether the fleet may start new attempts: the drain's pause by hand. */
    DrainSwitch drainSwitch();

    /** The outputs of items' latest attempts: kept by the drain, read by the API. */
    AttemptOutputs outputs();

    /** A new watch of arrivals for a drain that runs on its own; started and closed by that drain. */
    ArrivalWatch arrivals();

    /** Entries found in the store that are not items and are left alone, oldest first. */
    List<Anomaly> anomalies();

    /**
     * Reads the store as a drain does, so that {@link #anomalies} lists what a drain would leave alone
     * (for a process that runs no drain, such as a command).
     */
    void lookForAnomalies() throws IOException;

    /** Stops the backend's own threads and lets go of its store. */
    @Override
    void close() throws InterruptedException;
}
