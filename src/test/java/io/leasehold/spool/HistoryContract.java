package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Backoff;
import io.leasehold.core.ClaimName;
import io.leasehold.core.HandlerOutput;
import io.leasehold.core.Outcome;
import io.leasehold.core.TakeoverRule;
import io.leasehold.drain.DrainEvents;
import io.leasehold.drain.DrainReport;
import io.leasehold.drain.DrainSettings;
import io.leasehold.drain.DrainPause;
import io.leasehold.drain.Drainer;
import io.leasehold.drain.OutputKeeping;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.smallrye.mutiny.Uni;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Scheduled items, the times and holder of an item and the history of its attempts, on every backend:
 * the backend's store and spool with a real drain on them (the production takeover rule, epoch 7 for
 * every act), and the clock driven, so runAt, backoffs and leases pass without anyone waiting.
 */
public abstract class HistoryContract extends ItemStoreContract {

    private static final long EPOCH = 7;
    /** Another instance's spool on the same items, with a tag of its own: set by the backend's test. */
    protected Spool theirs;
    /** What the handler answers, per item, attempt after attempt (done once the list is used up). */
    protected final Map<String, List<Outcome>> script = new ConcurrentHashMap<>();
    private final List<WorkItem> handled = new CopyOnWriteArrayList<>();
    /** Per item, how many handler calls report an output; the later ones are silent (a silent success). */
    protected final Map<String, Integer> silentAfter = new ConcurrentHashMap<>();
    private ExecutorService workers;
    private Drainer drainer;
    /** The backend's attempts' outputs on the same store: set by the backend's test. */
    protected AttemptOutputs outputs = AttemptOutputs.NONE;
    /** Where the drain keeps outputs, when not in {@link #outputs}: set before the first pass. */
    private AttemptOutputs drainKeepsIn;
    /** "id attempt: error" for each output the drain told it could not keep. */
    private final List<String> notKept = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Made at its first pass: the backend's test sets the spool up after this class's own set-up runs. */
    private Drainer drainer() {
        if (drainer != null) {
            return drainer;
        }
        workers = Executors.newCachedThreadPool();
        Handler handler = item -> {
            handled.add(item);
            long calls = handled.stream().filter(i -> i.id().equals(item.id())).count();
            if (calls <= silentAfter.getOrDefault(item.id(), Integer.MAX_VALUE)) {
                item.report(new HandlerOutput(item.attempt(), List.of(new HandlerOutput.Part("stdout",
                    "attempt " + item.attempt() + " of " + item.id(), 0, "tail"))));
            }
            List<Outcome> outcomes = script.getOrDefault(item.id(), List.of());
            long before = handled.stream().filter(i -> i.id().equals(item.id())).count() - 1;
            return Uni.createFrom().item(before < outcomes.size() ? outcomes.get((int) before) : Outcome.done());
        };
        DrainSettings settings = new DrainSettings(2, 5, Duration.ofSeconds(1), Duration.ZERO,
                new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), Duration.ZERO, TakeoverRule.OBSERVED);
        drainer = new Drainer(spool, clock, TERMS, settings, handler, () -> EPOCH, workers, workers, ArrivalWatch.NONE,
                new DrainEvents() {
                    @Override
                    public void outputNotKept(String id, int attempt, String error) {
                        notKept.add(id + " " + attempt + ": " + error);
                    }
                }, false, DrainPause.never(clock),
                new OutputKeeping(drainKeepsIn != null ? drainKeepsIn : outputs, "scripted"));
        drainer.start();
        return drainer;
    }

    @AfterEach
    void stopDrain() {
        if (drainer != null) {
            drainer.stopNow();
            workers.shutdownNow();
        }
    }

    protected DrainReport pass() {
        return drainer().drainPass(Duration.ofSeconds(30)).await().atMost(Duration.ofSeconds(30));
    }

    private ItemView look(String id) throws IOException {
        return store.lookup(id).orElseThrow(() -> new AssertionError("no item " + id));
    }

    private List<WorkItem> handled(String id) {
        return handled.stream().filter(i -> i.id().equals(id)).toList();
    }

    private String mine() {
        return spool.holderTag().text();
    }

    private static void assertAttempt(PastAttempt a, int attempt, String holder, Long epoch, String outcome,
            String reason) {
        assertEquals(attempt, a.attempt(), a.toString());
        assertEquals(holder, a.holder(), a.toString());
        assertEquals(epoch, a.epoch(), a.toString());
        assertEquals(outcome, a.outcome(), a.toString());
        assertEquals(reason, a.reason(), a.toString());
    }

    @Test
    void aScheduledItemIsNotClaimedBeforeItsRunAtAndRunsAtItsFirstAttemptAfter() throws IOException {
        String id = uniqueId("sched");
        Instant runAt = clock.now().plus(Duration.ofMinutes(5));
        ItemView enqueued = store.enqueue(id, new ByteArrayInputStream("later".getBytes()), MAX, runAt);
        assertEquals("scheduled", enqueued.state());
        assertEquals(runAt, enqueued.runAt());
        ItemView scheduled = look(id);
        assertEquals("scheduled", scheduled.state());
        assertEquals(runAt, scheduled.runAt());
        assertEquals(null, scheduled.attempt(), "no attempt yet");
        assertEquals(null, scheduled.holder(), "nobody holds it");
        assertEquals(clock.now(), scheduled.enqueuedAt());
        assertThrows(ItemStore.DuplicateItemException.class,
                () -> store.enqueue(id, new ByteArrayInputStream(new byte[0]), MAX), "its id is known");
        assertEquals(List.of(id), store.listParked(ItemView.SCHEDULED, 1000).stream().map(ItemView::id)
                .filter(id::equals).toList());
        assertTrue(store.listParked(ItemView.RETRYING, 1000).stream().noneMatch(v -> v.id().equals(id)));
        assertFalse(spool.pendingBatch(1000).contains(id), "not pending");

        assertEquals(0, pass().claimed() + pass().tookOver(), "not taken now");
        clock.advance(Duration.between(clock.now(), runAt).minusMillis(1));
        assertEquals(0, pass().tookOver(), "nor a millisecond before its runAt");
        assertEquals("scheduled", look(id).state());
        assertTrue(handled(id).isEmpty());

        clock.advance(Duration.ofMillis(1));
        pass();
        assertEquals(1, handled(id).size(), "run once its runAt came");
        assertEquals(1, handled(id).get(0).attempt(), "as its first attempt, nothing abandoned");
        ItemView done = look(id);
        assertEquals("done", done.state());
        assertEquals(runAt, done.settledAt());
        assertEquals(1, done.history().size(), done.history().toString());
        assertAttempt(done.history().get(0), 1, mine(), EPOCH, "done", null);
        assertEquals(runAt, done.history().get(0).startedAt());
    }

    @Test
    void aScheduledItemIsCancelledAsAPendingOneAndARunAtNotAheadRunsNow() throws IOException {
        String id = uniqueId("sched-cancel");
        store.enqueue(id, new ByteArrayInputStream(new byte[0]), MAX, clock.now().plus(Duration.ofHours(1)));
        long scheduledBefore = store.counts().scheduled();
        ItemView cancelled = store.cancel(id);
        assertEquals("failed", cancelled.state());
        assertEquals("cancelled", cancelled.reason());
        assertEquals(scheduledBefore - 1, store.counts().scheduled());
        assertTrue(store.listParked(ItemView.SCHEDULED, 1000).stream().noneMatch(v -> v.id().equals(id)));
        clock.advance(Duration.ofHours(2));
        pass();
        assertTrue(handled(id).isEmpty(), "a cancelled item never runs");

        String past = uniqueId("sched-past");
        assertEquals("pending", store.enqueue(past, new ByteArrayInputStream(new byte[0]), MAX,
                clock.now().minusSeconds(1)).state());
        String present = uniqueId("sched-now");
        assertEquals("pending", store.enqueue(present, new ByteArrayInputStream(new byte[0]), MAX, clock.now())
                .state());
    }

    @Test
    void theHistoryShowsHolderEpochAndOutcomeAfterARetryAndAFailureAndGoesOnAfterARetryOfTheItem()
            throws IOException {
        String id = uniqueId("hist");
        script.put(id, List.of(Outcome.retry("exit 75: busy"), Outcome.failed("exit 3: bad input")));
        Instant enqueuedAt = clock.now();
        store.enqueue(id, new ByteArrayInputStream("h".getBytes()), MAX);
        ItemView pending = look(id);
        assertEquals(enqueuedAt, pending.enqueuedAt());
        assertEquals(null, pending.settledAt());
        assertEquals(List.of(), pending.history());

        clock.advance(Duration.ofSeconds(1));
        Instant firstAt = clock.now();
        assertEquals(1, pass().retried());
        ItemView retrying = look(id);
        assertEquals("retrying", retrying.state());
        assertEquals(1, retrying.history().size());
        assertAttempt(retrying.history().get(0), 1, mine(), EPOCH, "retry", "exit 75: busy");
        assertEquals(firstAt, retrying.history().get(0).startedAt());
        assertEquals(firstAt, retrying.history().get(0).endedAt());
        assertEquals(List.of(id), store.listParked(ItemView.RETRYING, 1000).stream().map(ItemView::id)
                .filter(id::equals).toList());

        clock.advance(Duration.ofSeconds(10)); // past any backoff of the first retry
        Instant failedAt = clock.now();
        assertEquals(1, pass().failed());
        ItemView failed = look(id);
        assertEquals("failed", failed.state());
        assertEquals("exit 3: bad input", failed.reason());
        assertEquals(enqueuedAt, failed.enqueuedAt());
        assertEquals(failedAt, failed.settledAt());
        assertEquals(2, failed.history().size(), failed.history().toString());
        assertAttempt(failed.history().get(0), 1, mine(), EPOCH, "retry", "exit 75: busy");
        assertAttempt(failed.history().get(1), 2, mine(), EPOCH, "failed", "exit 3: bad input");
        assertEquals(failedAt, failed.history().get(1).endedAt());

        store.retry(id);
        assertEquals(2, look(id).history().size(), "a retry of the item keeps its history");
        pass();
        ItemView done = look(id);
        assertEquals("done", done.state());
        assertEquals(3, done.history().size(), done.history().toString());
        assertAttempt(done.history().get(2), 1, mine(), EPOCH, "done", null);
    }

    @Test
    void anAbandonedAttemptIsInTheHistoryUnderTheHolderThatLetItGo() throws IOException {
        String id = uniqueId("abandoned");
        store.enqueue(id, new ByteArrayInputStream("a".getBytes()), MAX);
        ClaimName held = theirs.claim(id, clock.now()).orElseThrow();
        ItemView claimed = look(id);
        assertEquals(theirs.holderTag().text(), claimed.holder(), "the holder is read from the claim's nonce");
        assertEquals(clock.now(), claimed.enqueuedAt());
        assertEquals(List.of(), claimed.history());

        pass(); // sees the claim: under the observed rule it must see it unrenewed for long enough
        clock.advance(Duration.ofSeconds(131));
        assertEquals(1, pass().tookOver());
        ItemView done = look(id);
        assertEquals("done", done.state());
        assertEquals(2, done.history().size(), done.history().toString());
        assertAttempt(done.history().get(0), held.generation().attempt(), theirs.holderTag().text(), null, "abandoned",
                done.history().get(0).reason());
        assertAttempt(done.history().get(1), 2, mine(), EPOCH, "done", null);
    }

    @Test
    void aHistoryIsBoundedToTheLatestAttempts() throws IOException {
        String id = uniqueId("bounded");
        script.put(id, java.util.Collections.nCopies(100, Outcome.retry("again")));
        store.enqueue(id, new ByteArrayInputStream(new byte[0]), MAX);
        runUntilFailed(id); // max-attempts 5: it gives up after the fifth
        store.retry(id);
        runUntilFailed(id);
        store.retry(id);
        runUntilFailed(id);
        ItemView failed = look(id);
        assertEquals(15, handled(id).size());
        assertEquals(PastAttempt.MAX_KEPT, failed.history().size(), "only the latest are kept");
        assertEquals(List.of(1, 2, 3, 4, 5, 1, 2, 3, 4, 5), failed.history().stream().map(PastAttempt::attempt)
                .toList());
        assertEquals("retry", failed.history().get(PastAttempt.MAX_KEPT - 1).outcome());
    }

    private void runUntilFailed(String id) throws IOException {
        for (int round = 0; round < 10 && !look(id).state().equals("failed"); round++) {
            pass();
            clock.advance(Duration.ofSeconds(10)); // past any backoff (at most 8 s)
        }
        assertEquals("failed", look(id).state());
    }

    /** Each attempt's output under its number, of the attempt the history shows (same start), gone with a purge. */
    @Test
    void eachAttemptKeepsItsOutputUnderItsNumberAndAPurgeTakesThem() throws IOException {
        String id = uniqueId("shown");
        script.put(id, List.of(Outcome.retry("exit 75: busy"), Outcome.failed("exit 3: bad input")));
        store.enqueue(id, new ByteArrayInputStream("o".getBytes()), MAX);
        runUntilFailed(id);
        List<PastAttempt> history = look(id).history();
        assertEquals(2, history.size(), history.toString());
        for (PastAttempt past : history) {
            AttemptOutput kept = outputs.read(id, past.attempt()).orElseThrow(() -> new AssertionError("no output of " + past));
            assertEquals(past.attempt(), kept.attempt());
            assertEquals("scripted", kept.handler());
            assertEquals(past.startedAt(), kept.startedAt(), "the output of the attempt the history shows");
            assertEquals(past.attempt(), kept.status());
            assertEquals("attempt " + past.attempt() + " of " + id, kept.parts().get(0).text());
        }
        assertEquals(List.of(), notKept, "each output kept");
        assertTrue(store.purge(id, ItemState.FAILED));
        assertEquals(java.util.Optional.empty(), outputs.read(id, 1));
        assertEquals(java.util.Optional.empty(), outputs.read(id, 2));
    }

    /** A full disk, NATS away: the output is lost, never the item, which settles as it would have. */
    @Test
    void anOutputThatCannotBeKeptLeavesTheItemToSettleAsItWould() throws IOException {
        drainKeepsIn = new AttemptOutputs() {
            @Override
            public void keep(String id, AttemptOutput output) throws IOException {
                throw new IOException("No space left on device");
            }

            @Override
            public java.util.Optional<AttemptOutput> read(String id, int attempt) {
                return java.util.Optional.empty();
            }

            @Override
            public void forget(String id) {
            }
        };
        String id = uniqueId("unkept");
        script.put(id, List.of(Outcome.failed("exit 3: bad input")));
        store.enqueue(id, new ByteArrayInputStream("o".getBytes()), MAX);
        assertEquals(1, pass().failed());
        assertEquals("exit 3: bad input", look(id).reason());
        assertEquals(List.of(id + " 1: No space left on device"), notKept, "told to the metrics");
    }

    /** A retry by hand counts attempts from 1 again: the earlier run's outputs go, even when the new run shows nothing. */
    @Test
    void aRetryByHandDropsTheEarlierRunsOutputsEvenWhenTheNewRunIsSilent() throws Exception {
        String id = uniqueId("silent-retry");
        script.put(id, List.of(Outcome.failed("exit 3: bad input")));
        silentAfter.put(id, 1); // the first call reports, the retried run's does not
        store.enqueue(id, new ByteArrayInputStream("o".getBytes()), MAX);
        runUntilFailed(id);
        assertTrue(outputs.read(id, 1).isPresent(), "the failed run's attempt 1 kept its output");
        clock.advance(Duration.ofMinutes(1));
        store.retry(id);
        assertEquals(java.util.Optional.empty(), outputs.read(id, 1), "dropped with the retry");
        pass();
        assertEquals("done", look(id).state());
        assertEquals(java.util.Optional.empty(), outputs.read(id, 1), "the silent new attempt 1 kept none");
    }
}
