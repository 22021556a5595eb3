package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.leasehold.core.Backoff;
import io.leasehold.core.Outcome;
import io.leasehold.core.TakeoverRule;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.PosixSpool;
import io.leasehold.spool.SpoolAnomalies;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The log context of an item's work: its handler runs with the item's id, attempt and epoch in the MDC,
 * so does its settlement when the handler answers later on another thread, and the one pooled worker
 * that runs item after item carries none of them into the next item or into other work.
 */
class ItemLogContextTest extends SpoolTestBase {

    private final ExecutorService oneWorker = Executors.newSingleThreadExecutor();
    private final ExecutorService renewals = Executors.newSingleThreadExecutor();
    /** What the MDC held when each handler call began, by item. */
    private final Map<String, List<Object>> seenAtCall = new ConcurrentHashMap<>();
    private final List<String> seenAtSettle = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopThreads() {
        oneWorker.shutdownNow();
        renewals.shutdownNow();
    }

    private static List<Object> context() {
        return java.util.Arrays.asList(MDC.get(ItemLogContext.ITEM), MDC.get(ItemLogContext.ATTEMPT),
                MDC.get(ItemLogContext.EPOCH));
    }

    private Drainer drainer(DrivenClock clock, Handler handler, DrainEvents events) {
        DrainSettings settings = new DrainSettings(1, 5, Duration.ofSeconds(1), Duration.ZERO,
                new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), Duration.ZERO, TakeoverRule.READING);
        Drainer drainer = new Drainer(new PosixSpool(layout, new SpoolAnomalies(), clock), clock, Instance.TERMS,
                settings, handler, new Instance.TestGate(), oneWorker, renewals, ArrivalWatch.NONE, events, true);
        drainer.start();
        return drainer;
    }

    @Test
    void eachItemsWorkCarriesItsOwnContextAndThePooledWorkerKeepsNoneAfter() throws Exception {
        DrivenClock clock = new DrivenClock();
        DrainEvents events = new DrainEvents() {
            @Override
            public void settled(String id, String where) {
                seenAtSettle.add(id + " " + context());
            }
        };
        Handler handler = item -> {
            seenAtCall.put(item.id(), context());
            if (item.id().equals("later")) { // answers on a thread of its own, after the call returned
                return Uni.createFrom().emitter(e -> new Thread(() -> e.complete(Outcome.done())).start());
            }
            return Uni.createFrom().item(Outcome.done());
        };
        enqueue("first");
        enqueue("later");
        enqueue("third");
        drainer(clock, handler, events);
        clock.tick("leasehold-poll");
        Await.until("all three settled", WAIT, () -> seenAtSettle.size() == 3);

        assertEquals(List.of("first", "1", "7"), seenAtCall.get("first"));
        assertEquals(List.of("later", "1", "7"), seenAtCall.get("later"));
        assertEquals(List.of("third", "1", "7"), seenAtCall.get("third"), "not the items before it");
        assertEquals(3, seenAtSettle.size(), seenAtSettle.toString());
        for (String settled : seenAtSettle) {
            String id = settled.substring(0, settled.indexOf(' '));
            assertEquals(id + " [" + id + ", 1, 7]", settled, "settled in its own context");
        }
        List<Object> afterwards = oneWorker.submit(ItemLogContextTest::context).get(10, TimeUnit.SECONDS);
        assertEquals(java.util.Arrays.asList(null, null, null), afterwards, "the pooled worker keeps no item's context");
    }

    @Test
    void aNestedContextGivesBackWhatWasThere() {
        try (ItemLogContext outer = ItemLogContext.ofEpoch(3)) {
            try (ItemLogContext inner = ItemLogContext.ofEpoch(4)) {
                assertEquals("4", MDC.get(ItemLogContext.EPOCH));
            }
            assertEquals("3", MDC.get(ItemLogContext.EPOCH));
        }
        assertNull(MDC.get(ItemLogContext.EPOCH));
    }
}
