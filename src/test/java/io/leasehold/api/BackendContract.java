package io.leasehold.api;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The base of the API contracts, which every spool backend's service must answer alike: a Directory*
 * and a JetStream* test run each one. The probe sees what HTTP cannot (payloads kept, nothing written).
 */
abstract class BackendContract {

    SpoolProbe spool;

    @BeforeEach
    void startClean() {
        spool = SpoolProbe.current();
        spool.startClean();
    }

    @AfterEach
    void closeProbe() throws InterruptedException {
        spool.close();
    }
}
