package io.leasehold.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A thread the service's own pools make while an item's log context is set (the log manager's MDC is
 * inheritable) starts without it, so other work on it names no item.
 */
class PoolThreadsTest {

    @AfterEach
    void clear() {
        MDC.remove("itemId");
        MDC.remove("attempt");
        MDC.remove("epoch");
    }

    private static List<Object> context() {
        return Arrays.asList(MDC.get("itemId"), MDC.get("attempt"), MDC.get("epoch"));
    }

    @Test
    void theLeaseAndRenewalThreadsStartWithNoItemsContext() throws Exception {
        LeaseThreads lease = new LeaseThreads();
        RenewalThread renewals = new RenewalThread();
        try {
            MDC.put("itemId", "a"); // as during item a's work, when the first task makes the thread
            MDC.put("attempt", "1");
            MDC.put("epoch", "7");
            CompletableFuture<List<Object>> onLease = new CompletableFuture<>();
            CompletableFuture<List<Object>> onRenewal = new CompletableFuture<>();
            lease.execute(() -> onLease.complete(context()));
            renewals.execute(() -> onRenewal.complete(context()));
            assertEquals(Arrays.asList(null, null, null), onLease.get(10, TimeUnit.SECONDS), "lease thread");
            assertEquals(Arrays.asList(null, null, null), onRenewal.get(10, TimeUnit.SECONDS), "renewal thread");
        } finally {
            lease.stop();
            renewals.stop();
        }
    }
}
