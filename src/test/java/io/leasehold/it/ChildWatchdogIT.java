package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.ProcessTable;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * exec children run in sessions of their own, so nothing in the kernel ends them with the service:
 * the watchdog started with the service does. A SIGKILLed service's children are gone within one
 * renewal interval, so they never work on claims another instance has taken over; a clean stop
 * ends them as before; and the watchdog itself never outlives the service.
 */
class ChildWatchdogIT {

    /** lease 3s / 3 renewals: the bound for the children of a killed service. */
    private static final Duration RENEWAL_INTERVAL = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofMillis(500);
    /** A grandchild in the same group as the handler's shell, which a kill of the shell alone would miss. */
    private static final String WORK = "sleep 601 & sleep 602";

    private SharedSpool spool;
    private ServiceProcess service;

    @AfterEach
    void cleanUp() {
        if (service != null) {
            service.close(); // SIGKILL: then the leftovers are the watchdog's, or the next line's
        }
        if (spool != null) {
            spool.killLeftoverAttempts();
        }
    }

    private ServiceProcess start(String name) {
        service = ServiceProcess.start(name, spool.config(Map.of(
                "leasehold.claim.lease", "3s",
                "leasehold.claim.renewals-per-lease", "3",
                "leasehold.claim.max-skew", "500ms",
                "leasehold.drain.concurrency", "2",
                "leasehold.drain.shutdown-timeout", "1s")), spool.env(name));
        return service.awaitReady(Duration.ofSeconds(60));
    }

    /** The group of each item's attempt once every process of it runs (the shell and its two sleeps). */
    private List<Long> startTwoAttempts(ServiceProcess service) {
        List<String> ids = List.of("w-1", "w-2");
        ids.forEach(id -> spool.enqueue(id, id));
        Await.until("both attempts run", Duration.ofSeconds(30), () -> ids.stream()
                .allMatch(id -> spool.runs("start", id).size() == 1
                        && ProcessTable.membersOf(spool.runs("start", id).get(0).pid()).size() >= 3));
        return ids.stream().map(id -> spool.runs("start", id).get(0).pid()).toList();
    }

    private static List<Long> watchdogOf(ServiceProcess service) {
        return ProcessTable.withArguments("leasehold-watchdog", Long.toString(service.pid()));
    }

    @Test
    void theChildrenOfAKilledServiceAreGoneWithinOneRenewalInterval() {
        spool = SharedSpool.create("orphans", WORK);
        start("victim");
        List<Long> groups = startTwoAttempts(service);

        long killedAt = System.nanoTime();
        service.kill();
        Await.until("every child group is gone", Duration.ofSeconds(10),
                () -> groups.stream().noneMatch(ProcessTable::groupAlive));
        Duration latency = Duration.ofNanos(System.nanoTime() - killedAt);
        System.out.printf("children of a SIGKILLed service gone %d ms after the kill (bound %d ms)%n",
                latency.toMillis(), RENEWAL_INTERVAL.plus(MARGIN).toMillis());
        assertTrue(latency.compareTo(RENEWAL_INTERVAL.plus(MARGIN)) <= 0, "took " + latency);
        Await.until("the watchdog exits too", Duration.ofSeconds(5), () -> watchdogOf(service).isEmpty());
    }

    @Test
    void aCleanStopExitsZeroAndLeavesNeitherChildrenNorTheWatchdog() {
        spool = SharedSpool.create("clean-stop", WORK);
        start("stopping");
        assertEquals(1, watchdogOf(service).size(), "one watchdog runs with the service");
        List<Long> groups = startTwoAttempts(service);

        service.terminate();
        assertEquals(0, service.awaitExit(Duration.ofSeconds(30)), service.logText());
        Await.until("every child group is gone", Duration.ofSeconds(10),
                () -> groups.stream().noneMatch(ProcessTable::groupAlive));
        Await.until("the watchdog exits", Duration.ofSeconds(5), () -> watchdogOf(service).isEmpty());
        assertEquals(List.of("w-1", "w-2"), List.copyOf(spool.names("pending")), "handed back as before");
    }
}
