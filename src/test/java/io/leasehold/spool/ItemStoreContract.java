package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.OwnThreads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rules of the {@link ItemStore} port (what the API does to the spool), one suite for every backend,
 * with the drain's {@link Spool} of the same backend beside it to move items as a drain would.
 */
public abstract class ItemStoreContract {

    protected static final long MAX = 64 * 1024;
    /** The lease terms of every backend's store in these tests. */
    public static final io.leasehold.core.LeaseTerms TERMS = new io.leasehold.core.LeaseTerms(
            Duration.ofSeconds(120), 3, Duration.ofSeconds(10));
    protected final DrivenClock clock = new DrivenClock();
    /** Set by the backend's test before each: the store, and the spool of the same items. */
    protected ItemStore store;
    protected Spool spool;

    private static int serial;

    protected static synchronized String uniqueId(String prefix) {
        return prefix + "-" + System.nanoTime() + "-" + ++serial;
    }

    private ItemView enqueue(String id, byte[] payload) throws IOException {
        return store.enqueue(id, new ByteArrayInputStream(payload), MAX);
    }

    private String state(String id) throws IOException {
        return store.lookup(id).map(ItemView::state).orElse("none");
    }

    @Test
    void anEnqueuedItemIsPendingAndItsPayloadIsWhatWasSent() throws IOException {
        String id = uniqueId("enq");
        byte[] payload = {0, (byte) 0xff, 10, 13};
        assertEquals("pending", enqueue(id, payload).state());
        assertEquals("pending", state(id));
        ClaimName claim = spool.claim(id, clock.now()).orElseThrow();
        assertArrayEquals(payload, spool.payload(claim).orElseThrow());
        assertEquals(1, store.lookup(id).orElseThrow().attempt());
        assertEquals("claimed", state(id));
    }

    @Test
    void aKnownIdIsRefusedWhateverStateItsItemIsIn() throws IOException {
        String id = uniqueId("dup");
        enqueue(id, new byte[] {1});
        assertThrows(ItemStore.DuplicateItemException.class, () -> enqueue(id, new byte[] {2}));
        ClaimName claim = spool.claim(id, clock.now()).orElseThrow();
        assertThrows(ItemStore.DuplicateItemException.class, () -> enqueue(id, new byte[] {3}));
        assertTrue(spool.settle(claim, ItemState.DONE));
        assertThrows(ItemStore.DuplicateItemException.class, () -> enqueue(id, new byte[] {4}));
        assertEquals("done", state(id));
    }

    @Test
    void twoEnqueuesRacingForOneIdLeaveOneItemWithTheWinnersPayload() throws Exception {
        for (int round = 0; round < 10; round++) {
            String id = uniqueId("racing");
            CyclicBarrier together = new CyclicBarrier(2);
            CompletableFuture<Boolean> a = CompletableFuture.supplyAsync(() -> tryEnqueue(id, "a", together),
                    OwnThreads.EACH);
            CompletableFuture<Boolean> b = CompletableFuture.supplyAsync(() -> tryEnqueue(id, "b", together),
                    OwnThreads.EACH);
            boolean aWon = a.get(30, TimeUnit.SECONDS);
            boolean bWon = b.get(30, TimeUnit.SECONDS);
            assertTrue(aWon ^ bWon, "round " + round + ": exactly one 201, got " + aWon + " and " + bWon);
            ClaimName claim = spool.claim(id, clock.now()).orElseThrow();
            assertEquals(aWon ? "a" : "b", new String(spool.payload(claim).orElseThrow()), "the winner's payload, whole");
        }
    }

    private boolean tryEnqueue(String id, String payload, CyclicBarrier together) {
        try {
            together.await(30, TimeUnit.SECONDS);
            enqueue(id, payload.getBytes());
            return true;
        } catch (ItemStore.DuplicateItemException e) {
            return false;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A body that sends one byte, then waits until the test lets it end. */
    private static final class HeldBody extends java.io.InputStream {
        final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        private boolean sent;

        @Override
        public int read() throws IOException {
            if (!sent) {
                sent = true;
                started.countDown();
                return 'x';
            }
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            return -1;
        }
    }

    @Test
    void anIdIsKnownFromTheMomentItsFirstEnqueueBeganThoughItStillUploads() throws Exception {
        String id = uniqueId("uploading");
        HeldBody body = new HeldBody();
        CompletableFuture<ItemView> first = CompletableFuture.supplyAsync(() -> {
            try {
                return store.enqueue(id, body, MAX);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, OwnThreads.EACH);
        assertTrue(body.started.await(30, TimeUnit.SECONDS), "the first upload began");
        assertThrows(ItemStore.DuplicateItemException.class, () -> enqueue(id, "second".getBytes()),
                "the second enqueue is refused while the first still uploads");
        assertEquals("none", state(id), "not an item before its payload is whole");
        body.release.countDown();
        assertEquals("pending", first.get(30, TimeUnit.SECONDS).state());
        assertArrayEquals("x".getBytes(), spool.payload(spool.claim(id, clock.now()).orElseThrow()).orElseThrow());
    }

    @Test
    void anUploadTheClientBrokeOffFailsWithItsOwnErrorAndLeavesNothing() throws IOException {
        String id = uniqueId("broken");
        class Broke extends IOException {
            Broke() {
                super("the client went away");
            }
        }
        java.io.InputStream breaking = new java.io.InputStream() {
            private int n;

            @Override
            public int read() throws IOException {
                if (n++ < 10) {
                    return 'y';
                }
                throw new Broke();
            }
        };
        assertThrows(Broke.class, () -> store.enqueue(id, breaking, MAX), "the body's error, not the store's");
        assertEquals("none", state(id));
        assertEquals("pending", enqueue(id, new byte[] {1}).state(), "the id is free again");
    }

    @Test
    void aPayloadPastTheLimitIsRefusedAndLeavesNothing() throws IOException {
        String id = uniqueId("big");
        assertThrows(ItemStore.PayloadTooLargeException.class, () -> enqueue(id, new byte[(int) MAX + 1]));
        assertEquals(Optional.empty(), store.lookup(id));
        assertEquals("pending", enqueue(id, new byte[(int) MAX]).state(), "the id is free; the limit itself fits");
    }

    @Test
    void aCancelledItemFailsAsCancelledAndOnlyAPendingOneCanBe() throws IOException {
        String id = uniqueId("cancel");
        enqueue(id, new byte[0]);
        ItemView cancelled = store.cancel(id);
        assertEquals("failed", cancelled.state());
        assertEquals("cancelled", cancelled.reason());
        assertThrows(ItemStore.WrongStateException.class, () -> store.cancel(id));
        assertThrows(ItemStore.NoSuchItemException.class, () -> store.cancel(uniqueId("nobody")));
        String held = uniqueId("held");
        enqueue(held, new byte[0]);
        spool.claim(held, clock.now()).orElseThrow();
        assertThrows(ItemStore.WrongStateException.class, () -> store.cancel(held), "a claimed item is not cancelled");
        assertEquals("claimed", state(held));
    }

    /**
     * A claim parked for a retry (its own record says retry, its reading moved so that it is taken again
     * later, as the drain parks one) shows as "retrying" with runAt and the reason, not as a claim whose
     * lease ran out; held again by a taker, it is "claimed".
     */
    @Test
    void aClaimParkedForARetryShowsRetryingWithItsRunAtAndReason() throws IOException {
        String id = uniqueId("parked");
        enqueue(id, new byte[0]);
        ClaimName held = spool.claim(id, clock.now()).orElseThrow();
        ItemView claimed = store.lookup(id).orElseThrow();
        assertEquals("claimed", claimed.state());
        assertTrue(claimed.leaseExpiresAt() != null && claimed.runAt() == null);

        spool.writeRecord(id, held.generation(), new AttemptRecord(AttemptRecord.Kind.RETRY, 0, "exit 75: busy"));
        ClaimName parked = held.renewedAt(clock.now().plus(Duration.ofMinutes(5)));
        assertTrue(spool.restamp(held, parked));
        ItemView retrying = store.lookup(id).orElseThrow();
        assertEquals("retrying", retrying.state());
        assertEquals("exit 75: busy", retrying.reason());
        assertEquals(null, retrying.leaseExpiresAt(), "no lease: nobody holds it");
        assertTrue(retrying.runAt().isAfter(parked.reading()), "runAt " + retrying.runAt() + " after the parked reading");
        assertTrue(store.list(ItemState.CLAIMED, 1000).stream().noneMatch(v -> v.id().equals(id)),
                "not listed with the held claims");
        assertEquals(List.of("retrying"), store.listParked(ItemView.RETRYING, 1000).stream()
                .filter(v -> v.id().equals(id)).map(ItemView::state).toList(), "listed as retrying");

        ClaimName taken = spool.takeOver(parked, clock.now()).orElseThrow();
        assertEquals("claimed", store.lookup(id).orElseThrow().state(), "a taker's claim is a claim again");
    }

    @Test
    void aRetriedItemIsPendingAgainWithItsAttemptsCountedAfresh() throws IOException {
        String id = uniqueId("retry");
        enqueue(id, new byte[] {7});
        ClaimName first = spool.claim(id, clock.now()).orElseThrow();
        ClaimName second = spool.takeOver(first, clock.now()).orElseThrow(); // attempt 2
        spool.writeRecord(id, second.generation(), new AttemptRecord(AttemptRecord.Kind.FAILED, 0, "exit 3"));
        assertTrue(spool.settle(second, ItemState.FAILED));
        assertEquals("exit 3", store.lookup(id).orElseThrow().reason());
        assertEquals("pending", store.retry(id).state());
        ClaimName again = spool.claim(id, clock.now()).orElseThrow();
        assertEquals(1, again.generation().attempt());
        assertArrayEquals(new byte[] {7}, spool.payload(again).orElseThrow(), "the payload came back with it");
        assertThrows(ItemStore.WrongStateException.class, () -> store.retry(id), "only a failed item is retried");
    }

    @Test
    void aPurgedItemIsGoneAndItsIdFreeAgain() throws IOException {
        String id = uniqueId("purge");
        enqueue(id, new byte[] {1});
        ClaimName claim = spool.claim(id, clock.now()).orElseThrow();
        assertFalse(store.purge(id, ItemState.DONE), "not settled yet");
        assertTrue(spool.settle(claim, ItemState.DONE));
        assertFalse(store.purge(id, ItemState.FAILED), "not in that state");
        assertTrue(store.purge(id, ItemState.DONE));
        assertEquals(Optional.empty(), store.lookup(id));
        assertFalse(store.purge(id, ItemState.DONE), "purged once");
        assertEquals("pending", enqueue(id, new byte[] {2}).state());
        assertArrayEquals(new byte[] {2}, spool.payload(spool.claim(id, clock.now()).orElseThrow()).orElseThrow());
    }

    private List<String> batch(List<String> ids, boolean commit) throws IOException {
        try (StagedBatch batch = store.stageBatch(MAX)) {
            for (int line = 1; line <= ids.size(); line++) {
                String id = ids.get(line - 1);
                // ids before their payloads on odd lines, after them on even ones, as NDJSON may order them
                try (var out = batch.payload(line, line % 2 == 1 ? id : null)) {
                    out.write(("payload of " + id).getBytes());
                }
                batch.item(line, id);
            }
            return commit ? batch.commit() : List.of();
        }
    }

    @Test
    void aCommittedBatchIsPendingWholeInLineOrder() throws IOException {
        List<String> ids = List.of(uniqueId("b1"), uniqueId("b2"), uniqueId("b3"));
        assertEquals(ids, batch(ids, true));
        for (String id : ids) {
            assertEquals("pending", state(id));
            assertEquals("payload of " + id, new String(spool.payload(spool.claim(id, clock.now()).orElseThrow()).orElseThrow()));
        }
    }

    @Test
    void aBatchWithAKnownIdIsRefusedWholeAndLeavesNothingOfItsOwn() throws IOException {
        String known = uniqueId("known");
        enqueue(known, "first".getBytes());
        List<String> ids = List.of(uniqueId("mine"), known, uniqueId("later"));
        assertThrows(ItemStore.DuplicateItemException.class, () -> batch(ids, true));
        assertEquals("none", state(ids.get(0)), "the batch's first item is gone with it");
        assertEquals("none", state(ids.get(2)));
        assertEquals("pending", enqueue(ids.get(0), new byte[0]).state(), "its ids are free again");
        assertArrayEquals("first".getBytes(), spool.payload(spool.claim(known, clock.now()).orElseThrow()).orElseThrow(),
                "the known item is untouched");
    }

    @Test
    void aBatchClosedWithoutACommitOrWithAnOversizedLineLeavesNothing() throws IOException {
        List<String> ids = List.of(uniqueId("open1"), uniqueId("open2"));
        batch(ids, false);
        assertEquals("none", state(ids.get(0)));
        assertEquals("none", state(ids.get(1)));
        String big = uniqueId("big");
        try (StagedBatch batch = store.stageBatch(MAX)) {
            String small = uniqueId("small");
            try (var out = batch.payload(1, small)) {
                out.write(new byte[1]);
            }
            batch.item(1, small);
            assertThrows(ItemStore.PayloadTooLargeException.class, () -> {
                try (var out = batch.payload(2, big)) {
                    out.write(new byte[(int) MAX + 1]);
                }
            });
        }
        assertEquals("none", state(big));
        assertEquals(0, store.list(ItemState.PENDING, 1000).stream().filter(v -> v.id().startsWith("small")).count());
    }

    @Test
    void aListingShowsOneStateOldestFirstAndTheCountsAddUp() throws IOException {
        SpoolCounts before = store.counts();
        String older = uniqueId("older");
        enqueue(older, new byte[0]);
        clock.advance(Duration.ofSeconds(1));
        String newer = uniqueId("newer");
        enqueue(newer, new byte[0]);
        String claimed = uniqueId("claimed");
        enqueue(claimed, new byte[0]);
        spool.claim(claimed, clock.now()).orElseThrow();
        List<String> pending = store.list(ItemState.PENDING, 1000).stream().map(ItemView::id).toList();
        assertTrue(pending.indexOf(older) >= 0 && pending.indexOf(older) < pending.indexOf(newer), pending.toString());
        assertFalse(pending.contains(claimed));
        assertEquals(1, store.list(ItemState.PENDING, 1).size());
        SpoolCounts after = store.counts();
        assertEquals(before.pending() + 2, after.pending());
        assertEquals(before.claimed() + 1, after.claimed());
    }

    /** Every item of {@code state} whose id starts with {@code prefix}, walked {@code page} at a time. */
    private java.util.Map<String, ItemStore.Settled> walk(ItemState state, boolean reasons, String prefix, int page)
            throws IOException {
        java.util.Map<String, ItemStore.Settled> seen = new java.util.HashMap<>();
        try (ItemStore.SettledWalk walk = store.walkSettled(state, reasons)) {
            for (List<ItemStore.Settled> next = walk.next(page); !next.isEmpty(); next = walk.next(page)) {
                assertTrue(next.size() <= page, "a page of at most " + page + ": " + next);
                for (ItemStore.Settled item : next) {
                    if (item.id().startsWith(prefix)) {
                        assertTrue(seen.put(item.id(), item) == null, item.id() + " answered twice");
                    }
                }
            }
        }
        return seen;
    }

    @Test
    void aWalkOfSettledItemsAnswersEachOnceAPageAtATimeWithWhenItSettledAndWhy() throws IOException {
        String prefix = uniqueId("walk");
        java.time.Instant doneAt = clock.now().minus(Duration.ofHours(3));
        java.time.Instant failedAt = clock.now().minus(Duration.ofHours(1));
        java.time.Instant now = clock.now();
        for (int i = 0; i < 5; i++) {
            enqueue(prefix + "-d" + i, new byte[] {1});
            clock.set(doneAt);
            assertTrue(spool.settle(spool.claim(prefix + "-d" + i, doneAt).orElseThrow(), ItemState.DONE));
            clock.set(now);
        }
        for (int i = 0; i < 2; i++) {
            String id = prefix + "-f" + i;
            enqueue(id, new byte[] {2});
            clock.set(failedAt);
            ClaimName claim = spool.claim(id, failedAt).orElseThrow();
            spool.writeRecord(id, claim.generation(), new AttemptRecord(AttemptRecord.Kind.FAILED, 0, "exit 7: boom"));
            assertTrue(spool.settle(claim, ItemState.FAILED));
            clock.set(now);
        }
        enqueue(prefix + "-p", new byte[] {3}); // pending: in no walk

        java.util.Map<String, ItemStore.Settled> done = walk(ItemState.DONE, false, prefix, 2);
        assertEquals(java.util.Set.of(prefix + "-d0", prefix + "-d1", prefix + "-d2", prefix + "-d3", prefix + "-d4"),
                done.keySet());
        done.values().forEach(item -> assertEquals(doneAt, item.settledAt(), item.id()));
        java.util.Map<String, ItemStore.Settled> failed = walk(ItemState.FAILED, true, prefix, 1);
        assertEquals(java.util.Set.of(prefix + "-f0", prefix + "-f1"), failed.keySet());
        failed.values().forEach(item -> {
            assertEquals(failedAt, item.settledAt(), item.id());
            assertEquals("exit 7: boom", item.reason(), item.id());
        });
        walk(ItemState.FAILED, false, prefix, 10).values().forEach(item -> assertEquals(null, item.reason()));
        assertThrows(IllegalArgumentException.class, () -> store.walkSettled(ItemState.PENDING, false));
    }
}
