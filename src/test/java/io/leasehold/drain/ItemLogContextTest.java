package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.Mapped;
import io.leasehold.core.Backoff;
import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.HolderTag;
import io.leasehold.core.Outcome;
import io.leasehold.core.TakeoverRule;
import io.leasehold.directory.PosixSpool;
import io.leasehold.directory.SpoolAnomalies;
import io.leasehold.handler.Handler;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.LogCapture;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Arrays;
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
 * so do its decision and its settlement when the handler answers later on a thread of its own, and the one pooled worker
 * that runs item after item carries none of them into the next item or into other work.
 */
class ItemLogContextTest extends SpoolTestBase {

    private final ExecutorService oneWorker = Executors.newSingleThreadExecutor();
    private final ExecutorService renewals = Executors.newSingleThreadExecutor();
    /** Answers for the handler from a thread made before any item ran, as an event loop's is. */
    private final ExecutorService answerer = Executors.newSingleThreadExecutor();
    /** What the MDC held when each handler call began, by item. */
    private final Map<String, List<Object>> seenAtCall = new ConcurrentHashMap<>();
    private final List<String> seenAtSettle = new CopyOnWriteArrayList<>();
    /** What the MDC held when each outcome was decided, on whichever thread decided it. */
    private final List<String> seenAtDecision = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopThreads() {
        oneWorker.shutdownNow();
        renewals.shutdownNow();
        answerer.shutdownNow();
    }

    private static List<Object> context() {
        return Arrays.asList(MDC.get(ItemLogContext.ITEM), MDC.get(ItemLogContext.ATTEMPT),
                MDC.get(ItemLogContext.EPOCH));
    }

    private Drainer drainer(DrivenClock clock, Handler handler, DrainEvents events) {
        DrainSettings settings = new DrainSettings(1, 5, Duration.ofSeconds(1), Duration.ZERO,
                new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), Duration.ZERO, TakeoverRule.READING);
        Drainer drainer = new Drainer(new PosixSpool(layout, new SpoolAnomalies(), clock,
                Mapped.defaults().item().maxBytes().asLongValue()), clock, Instance.TERMS,
                settings, handler, new Instance.TestGate(), oneWorker, renewals, ArrivalWatch.NONE, events, true,
                DrainPause.never(clock), OutputKeeping.NONE);
        drainer.start();
        return drainer;
    }

    @Test
    void eachItemsWorkCarriesItsOwnContextAndThePooledWorkerKeepsNoneAfter() throws Exception {
        DrivenClock clock = new DrivenClock();
        DrainEvents events = new DrainEvents() {
            @Override
            public void attempted(String id, String outcome, Duration took) {
                seenAtDecision.add(id + " " + context());
            }

            @Override
            public void settled(String id, AttemptEnd where) {
                seenAtSettle.add(id + " " + context());
            }
        };
        Handler handler = item -> {
            seenAtCall.put(item.id(), context());
            if (item.id().equals("later")) { // answered on another thread, after the call returned
                return Uni.createFrom().emitter(e -> answerer.execute(() -> e.complete(Outcome.done())));
            }
            return Uni.createFrom().item(Outcome.done());
        };
        // Made now, outside any item's context: a thread made inside one would inherit it.
        assertEquals(Arrays.asList(null, null, null), answerer.submit(ItemLogContextTest::context).get());
        enqueue("first");
        enqueue("later");
        enqueue("third");
        drainer(clock, handler, events);
        clock.tick("leasehold-poll");
        Await.until("all three settled", WAIT, () -> seenAtSettle.size() == 3);

        assertEquals(List.of("first", "1", "7"), seenAtCall.get("first"));
        assertEquals(List.of("later", "1", "7"), seenAtCall.get("later"));
        assertEquals(List.of("third", "1", "7"), seenAtCall.get("third"), "not the items before it");
        assertOwnContexts(seenAtDecision, "decided");
        assertOwnContexts(seenAtSettle, "settled");
        List<Object> afterwards = oneWorker.submit(ItemLogContextTest::context).get(10, TimeUnit.SECONDS);
        assertEquals(Arrays.asList(null, null, null), afterwards, "the pooled worker keeps no item's context");
    }

    /** The slot that a later settlement goes on with claims its next item outside the settled item's context. */
    @Test
    void theNextClaimIsNotMadeInThePreviousItemsContext() throws Exception {
        DrivenClock clock = new DrivenClock();
        List<String> seenAtClaim = new CopyOnWriteArrayList<>();
        DrainEvents events = new DrainEvents() {
            @Override
            public void claimed(String id) {
                seenAtClaim.add(id + " " + context());
            }

            @Override
            public void settled(String id, AttemptEnd where) {
                seenAtSettle.add(id + " " + context());
            }
        };
        Handler handler = item -> Uni.createFrom().emitter(e -> answerer.execute(() -> e.complete(Outcome.done())));
        answerer.submit(ItemLogContextTest::context).get();
        enqueue("one");
        enqueue("two");
        drainer(clock, handler, events);
        clock.tick("leasehold-poll");
        Await.until("both settled", WAIT, () -> seenAtSettle.size() == 2);
        for (String claimed : seenAtClaim) {
            assertEquals(claimed.substring(0, claimed.indexOf(' ')) + " [null, null, null]", claimed,
                    "claimed outside any other item's context: " + seenAtClaim);
        }
    }

    /** The renewal thread's line about a claim taken over by another instance names the item and attempt. */
    @Test
    void theRenewalThreadsLineAboutALostClaimNamesItsItem() throws Exception {
        DrivenClock clock = new DrivenClock();
        long maxBytes = Mapped.defaults().item().maxBytes().asLongValue();
        PosixSpool mine = new PosixSpool(layout, new SpoolAnomalies(), clock, maxBytes);
        PosixSpool theirs = new PosixSpool(layout, new SpoolAnomalies(), clock, maxBytes, HolderTag.named("theirs"));
        enqueue("lost");
        ClaimName claim = mine.claim("lost", clock.now()).orElseThrow();
        HeldClaim held = new HeldClaim(claim);
        assertTrue(theirs.takeOver(claim, clock.now()).isPresent());
        clock.advance(Instance.TERMS.renewEvery());
        try (LogCapture log = LogCapture.of(ClaimRenewal.class.getName())) {
            renewals.submit(() -> new ClaimRenewal(mine, clock, DrainEvents.NONE).renewAll(List.of(held))).get();
            assertEquals(Map.of(ItemLogContext.ITEM, "lost", ItemLogContext.ATTEMPT, "1"),
                    log.mdcOf("was taken over"));
        }
        assertEquals(Arrays.asList(null, null, null), renewals.submit(ItemLogContextTest::context).get(),
                "the renewal thread keeps no item's context after");
    }

    /** Each of the three items' entries was logged in that item's own context. */
    private static void assertOwnContexts(List<String> seen, String what) {
        assertEquals(3, seen.size(), seen.toString());
        for (String entry : seen) {
            String id = entry.substring(0, entry.indexOf(' '));
            assertEquals(id + " [" + id + ", 1, 7]", entry, what + " in its own context");
        }
    }

    /**
     * The log manager's MDC is inherited by a thread made while it is set (a pool growing during an item):
     * such a thread, once it has run an item of its own, holds no context at all, not the one it was born with.
     */
    @Test
    void aThreadBornInAnItemsContextKeepsNoneAfterItsOwnItem() throws Exception {
        HeldClaim parent = new HeldClaim(new ClaimName("parent", Generation.at(1), DrivenClock.START));
        HeldClaim own = new HeldClaim(new ClaimName("own", Generation.at(2), DrivenClock.START));
        List<List<Object>> seen = new CopyOnWriteArrayList<>();
        Thread born;
        try (ItemLogContext context = ItemLogContext.of(parent)) {
            born = new Thread(() -> {
                seen.add(context()); // what it inherited
                ItemLogContext.around(own, () -> seen.add(context())).run();
                seen.add(context());
            });
            born.start();
        }
        born.join(10_000);
        assertEquals(List.of(Arrays.asList("parent", "1", null), Arrays.asList("own", "2", null),
                Arrays.asList(null, null, null)), seen);
    }

    @Test
    void aNestedEpochGivesBackTheOneThere() {
        try (ItemLogContext outer = ItemLogContext.ofEpoch(3)) {
            try (ItemLogContext inner = ItemLogContext.ofEpoch(4)) {
                assertEquals("4", MDC.get(ItemLogContext.EPOCH));
            }
            assertEquals("3", MDC.get(ItemLogContext.EPOCH));
        }
        assertNull(MDC.get(ItemLogContext.EPOCH));
    }
}
