package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Outcome;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The counts per state of one backend ({@code GET /spool}, the gauges, the status page): a claim parked until
 * its scheduled time counts as scheduled and one parked for a retry as retrying, never also as claimed;
 * claimed counts, and lists, the claims someone holds. Each item is counted once, through the moves
 * that park and unpark it, whether the store read its memory or looked afresh.
 */
public abstract class StateCountsContract extends ClaimAgesContract {

    private SpoolCounts countsSeen() throws Exception {
        seen(TERMS.lease());
        SpoolCounts now = store.countsNow();
        assertEquals(now, store.counts(), "the counts kept in memory and the counts of a GET agree");
        return now;
    }

    private static SpoolCounts counts(long pending, long claimed, long scheduled, long retrying, long done,
            long failed) {
        return new SpoolCounts(pending, claimed, scheduled, retrying, done, failed, 0);
    }

    private List<String> listed(ItemState state) throws IOException {
        return store.list(state, 100).stream().map(ItemView::id).toList();
    }

    @Test
    void aScheduledItemCountsAsScheduledAndNotAsClaimed() throws Exception {
        store.enqueue("later", new ByteArrayInputStream(new byte[] {1}), MAX, clock.now().plus(Duration.ofHours(2)));

        assertEquals(counts(0, 0, 1, 0, 0, 0), countsSeen());
        assertEquals(List.of(), listed(ItemState.CLAIMED), "claimed lists held claims only");
    }

    @Test
    void aClaimParkedForARetryCountsAsRetryingUntilItRunsAgain() throws Exception {
        script.put("flaky", List.of(Outcome.retry("exit 75: busy")));
        store.enqueue("flaky", new ByteArrayInputStream(new byte[] {1}), MAX);
        assertEquals(1, pass().retried());

        assertEquals(counts(0, 0, 0, 1, 0, 0), countsSeen());
        assertEquals(List.of(), listed(ItemState.CLAIMED));

        clock.advance(Duration.ofSeconds(10)); // past the first backoff
        pass();
        assertEquals(counts(0, 0, 0, 0, 1, 0), countsSeen(), "run again and done: counted once, as done");
    }

    @Test
    void heldScheduledAndRetryingClaimsAreEachCountedOnceAndOnlyTheHeldOneIsListedAsClaimed() throws Exception {
        script.put("flaky", List.of(Outcome.retry("HTTP 503")));
        store.enqueue("flaky", new ByteArrayInputStream(new byte[] {1}), MAX);
        assertEquals(1, pass().retried());
        store.enqueue("later", new ByteArrayInputStream(new byte[] {1}), MAX, clock.now().plus(Duration.ofHours(2)));
        store.enqueue("held", new ByteArrayInputStream(new byte[] {1}), MAX);
        assertTrue(theirs.claim("held", clock.now()).isPresent(), "held by another instance");
        store.enqueue("waiting", new ByteArrayInputStream(new byte[] {1}), MAX);

        assertEquals(counts(1, 1, 1, 1, 0, 0), countsSeen());
        assertEquals(List.of("held"), listed(ItemState.CLAIMED));
        assertEquals(List.of("later"), store.listParked(ItemView.SCHEDULED, 100).stream().map(ItemView::id).toList());
        assertEquals(List.of("flaky"), store.listParked(ItemView.RETRYING, 100).stream().map(ItemView::id).toList());
    }

    @Test
    void aCancelledScheduledItemLeavesTheScheduledCountAtOnce() throws Exception {
        store.enqueue("later", new ByteArrayInputStream(new byte[] {1}), MAX, clock.now().plus(Duration.ofHours(2)));
        countsSeen();

        store.cancel("later");
        SpoolCounts at = store.countsNow();
        assertEquals(counts(0, 0, 0, 0, 0, 1), at, "without waiting for a recount or the watch");
        assertEquals(at, countsSeen());
    }

    /** Two cancels of the same scheduled item at once: one wins, and the item is counted once, as failed. */
    @Test
    void twoCancelsOfTheSameScheduledItemAtOnceCountItOnce() throws Exception {
        store.enqueue("later", new ByteArrayInputStream(new byte[] {1}), MAX, clock.now().plus(Duration.ofHours(2)));
        countsSeen();
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> cancels = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                cancels.add(two.submit(() -> {
                    go.await();
                    try {
                        store.cancel("later");
                        return true;
                    } catch (ItemStore.WrongStateException | ItemStore.NoSuchItemException e) {
                        return false; // the other cancel won
                    }
                }));
            }
            go.countDown();
            int won = 0;
            for (Future<Boolean> cancel : cancels) {
                won += cancel.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertEquals(1, won, "exactly one cancel wins");
        } finally {
            two.shutdownNow();
        }
        assertEquals(counts(0, 0, 0, 0, 0, 1), store.countsNow(), "at once");
        assertEquals(counts(0, 0, 0, 0, 0, 1), countsSeen());
    }

    @Test
    void aScheduledItemTakenWhenItsTimeCameCountsAsClaimed() throws Exception {
        store.enqueue("later", new ByteArrayInputStream(new byte[] {1}), MAX, clock.now().plusSeconds(30));
        ClaimName parked = theirs.claims().stream().filter(c -> c.id().equals("later")).findFirst().orElseThrow();
        clock.advance(Duration.ofMinutes(5));
        // As a takeover takes it: a new generation, then the taker's own record.
        ClaimName taken = theirs.takeOver(parked, clock.now()).orElseThrow();
        theirs.writeRecord("later", taken.generation(), AttemptRecord.note(0, ""));

        assertEquals(counts(0, 1, 0, 0, 0, 0), countsSeen());
        assertEquals(List.of("later"), listed(ItemState.CLAIMED));
    }
}
