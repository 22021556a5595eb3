package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.SpoolCounts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The census on real files under concurrent moves of this instance: its atomic adds alone keep it exact,
 * and recounts racing those moves leave it exact once one runs at rest, never below zero on the way.
 */
class SpoolCensusTest extends StoreTestBase {

    private static final int PER_WRITER = 150;

    private final ExecutorService threads = Executors.newFixedThreadPool(5);
    private final AtomicInteger writing = new AtomicInteger();
    private final AtomicInteger settled = new AtomicInteger();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void concurrentOwnMovesKeepTheCountsExactWithoutARecount() throws Exception {
        store.recount();
        run(List.of(writer("a"), writer("b"), settler(), settler()));

        SpoolCounts counts = store.counts();
        assertEquals(store.fullCounts(), counts);
        assertEquals(new SpoolCounts(0, 0, 0, 0, 2 * PER_WRITER * 2 / 3, 2 * PER_WRITER / 3, 0), counts,
                "every item settled, a third of them in failed/");
    }

    @Test
    void recountsRacingOwnMovesEndExactOnceOneRunsAtRest() throws Exception {
        store.recount();
        raceRecounts(List.of(writer("c"), writer("d"), settler()), seen -> seen.pending() >= 0 && seen.claimed() >= 0
                && seen.done() >= 0 && seen.failed() >= 0);

        store.recount();
        assertEquals(store.fullCounts(), store.counts());
    }

    /**
     * Scheduled items and cancels of half of them, raced by recounts: each item counted once, as scheduled or
     * (cancelled) failed, never also as claimed, and exact once a recount runs at rest.
     */
    @Test
    void recountsRacingScheduledEnqueuesAndTheirCancelsCountEachItemOnce() throws Exception {
        store.recount();
        raceRecounts(List.of(scheduler("s"), scheduler("t")),
                seen -> seen.scheduled() + seen.failed() <= 2L * PER_WRITER && seen.claimed() >= 0);

        store.recount();
        assertEquals(store.fullCounts(), store.counts());
        assertEquals(new SpoolCounts(0, 0, PER_WRITER, 0, 0, PER_WRITER, 0), store.counts(),
                "half of each scheduler's items kept, half cancelled");
    }

    /** Enqueues {@link #PER_WRITER} items for an hour from now and cancels every other one at once. */
    private Callable<Void> scheduler(String prefix) {
        return () -> {
            for (int i = 0; i < PER_WRITER; i++) {
                String id = prefix + "-" + i;
                store.enqueue(id, new ByteArrayInputStream("p".getBytes(StandardCharsets.UTF_8)), 16,
                        clock.now().plusSeconds(3600));
                if (i % 2 == 1) {
                    store.cancel(id);
                }
            }
            return null;
        };
    }

    /** Runs {@code work} while another thread recounts again and again, each count it reads {@code sane}. */
    private void raceRecounts(List<Callable<Void>> work, Predicate<SpoolCounts> sane) throws Exception {
        AtomicBoolean moving = new AtomicBoolean(true);
        Future<Integer> recounts = threads.submit(() -> {
            int n = 0;
            while (moving.get()) {
                store.recount();
                SpoolCounts seen = store.counts();
                assertTrue(sane.test(seen), seen.toString());
                n++;
            }
            return n;
        });
        run(work);
        moving.set(false);
        assertTrue(recounts.get(60, TimeUnit.SECONDS) > 0, "recounts ran while items moved");
    }

    private void run(List<Callable<Void>> work) throws Exception {
        List<Future<Void>> running = new ArrayList<>();
        for (Callable<Void> task : work) {
            running.add(threads.submit(task));
        }
        for (Future<Void> task : running) {
            task.get(60, TimeUnit.SECONDS);
        }
    }

    private Callable<Void> writer(String prefix) {
        writing.incrementAndGet();
        return () -> {
            try {
                for (int i = 0; i < PER_WRITER; i++) {
                    store.enqueue(prefix + "-" + i, new ByteArrayInputStream("p".getBytes(StandardCharsets.UTF_8)), 16);
                }
            } finally {
                writing.decrementAndGet();
            }
            return null;
        };
    }

    /** Claims what it finds and settles every third item in failed/, the rest in done/, until all is settled. */
    private Callable<Void> settler() {
        return () -> {
            while (true) {
                boolean last = writing.get() == 0;
                List<String> batch = spool.pendingBatch(16);
                if (batch.isEmpty() && last) {
                    return null;
                }
                for (String id : batch) {
                    Optional<ClaimName> claim = spool.claim(id, clock.now());
                    if (claim.isPresent()) {
                        spool.settle(claim.get(), settled.getAndIncrement() % 3 == 0 ? ItemState.FAILED : ItemState.DONE);
                    }
                }
                Thread.yield();
            }
        };
    }
}
