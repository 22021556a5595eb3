package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplicatedStoreTimingTest {

    @Test
    void aDeadlineShorterThanAnElectionWithReplicatedStreamsIsWarnedNamingTheKeys() {
        String lease = ReplicatedStoreTiming.warning(Duration.ofSeconds(5), 3, 1, false).orElseThrow();
        assertTrue(lease.startsWith("leasehold.lease.renew-deadline (5s)") && lease.contains("leasehold.lease.replicas (3)")
                && lease.contains("to 10s or more"), lease);
        String spool = ReplicatedStoreTiming.warning(Duration.ofSeconds(5), 1, 3, true).orElseThrow();
        assertTrue(spool.contains("leasehold.spool.jetstream.replicas (3)"), spool);
    }

    @Test
    void oneReplicaALongEnoughDeadlineOrADirectorySpoolSaysNothing() {
        assertEquals(Optional.empty(), ReplicatedStoreTiming.warning(Duration.ofSeconds(5), 1, 1, true));
        assertEquals(Optional.empty(), ReplicatedStoreTiming.warning(Duration.ofSeconds(10), 3, 3, true));
        assertEquals(Optional.empty(), ReplicatedStoreTiming.warning(Duration.ofSeconds(5), 1, 3, false),
                "the spool's replicas count only for the JetStream spool");
    }
}
