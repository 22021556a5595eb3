package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Rounds of a shared directory sync: who runs one, who waits for which, and what a failed one does. */
class GroupCommitTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    /** A sync that holds until the test lets it go, failing when told to. */
    private static final class HeldSync implements DirectorySync {
        final AtomicInteger begun = new AtomicInteger();
        final List<CountDownLatch> gates = new ArrayList<>();
        final ConcurrentLinkedQueue<Integer> failing = new ConcurrentLinkedQueue<>();

        HeldSync(int rounds) {
            for (int i = 0; i < rounds; i++) {
                gates.add(new CountDownLatch(1));
            }
        }

        @Override
        public void force(Path directory) throws IOException {
            int round = begun.getAndIncrement();
            try {
                if (!gates.get(round).await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("round " + round + " was never let go");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            if (failing.contains(round)) {
                throw new IOException("Input/output error (round " + round + ")");
            }
        }
    }

    private static CompletableFuture<IOException> await(GroupCommit commit, List<Thread> threads) {
        CompletableFuture<IOException> outcome = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                commit.awaitSync();
                outcome.complete(null);
            } catch (IOException e) {
                outcome.complete(e);
            }
        });
        threads.add(t);
        t.start();
        return outcome;
    }

    private static void awaitWaiting(List<Thread> threads) {
        Await.until("every caller but the runner waits", WAIT, () -> threads.stream()
                .filter(t -> t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)
                .count() == threads.size());
    }

    @Test
    void callersArrivingDuringASyncShareTheNextOneAndNoneReturnsBeforeIt() throws Exception {
        HeldSync sync = new HeldSync(2);
        GroupCommit commit = new GroupCommit(Path.of("pending"), sync);
        List<Thread> threads = new ArrayList<>();
        CompletableFuture<IOException> first = await(commit, threads);
        Await.until("the first caller's sync has begun", WAIT, () -> sync.begun.get() == 1);

        List<Thread> later = new ArrayList<>();
        List<CompletableFuture<IOException>> joined = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            joined.add(await(commit, later));
        }
        awaitWaiting(later);
        assertEquals(1, sync.begun.get(), "no second sync while one runs");

        sync.gates.get(0).countDown();
        assertNull(first.get(20, TimeUnit.SECONDS));
        Await.until("one of the five runs the next round, for all five", WAIT, () -> sync.begun.get() == 2);
        for (CompletableFuture<IOException> f : joined) {
            assertTrue(!f.isDone(), "a caller that joined during the first sync waits for the second, begun after it");
        }
        sync.gates.get(1).countDown();
        for (CompletableFuture<IOException> f : joined) {
            assertNull(f.get(20, TimeUnit.SECONDS));
        }
        assertEquals(2, sync.begun.get(), "six callers, two syncs");
    }

    @Test
    void aFailedSyncFailsEveryCallerOfItsRoundAndTheNextRoundIsTriedAfresh() throws Exception {
        HeldSync sync = new HeldSync(3);
        sync.failing.add(1);
        GroupCommit commit = new GroupCommit(Path.of("pending"), sync);
        List<Thread> threads = new ArrayList<>();
        CompletableFuture<IOException> first = await(commit, threads);
        Await.until("round 0 has begun", WAIT, () -> sync.begun.get() == 1);
        List<Thread> second = new ArrayList<>();
        List<CompletableFuture<IOException>> failing = List.of(await(commit, second), await(commit, second),
                await(commit, second));
        awaitWaiting(second);
        sync.gates.get(0).countDown();
        assertNull(first.get(20, TimeUnit.SECONDS));
        Await.until("round 1 has begun", WAIT, () -> sync.begun.get() == 2);

        List<Thread> third = new ArrayList<>();
        CompletableFuture<IOException> after = await(commit, third);
        awaitWaiting(third);
        sync.gates.get(1).countDown();
        for (CompletableFuture<IOException> f : failing) {
            IOException e = f.get(20, TimeUnit.SECONDS);
            assertTrue(e != null && e.getMessage().contains("Input/output error (round 1)"), String.valueOf(e));
        }
        Await.until("round 2 has begun", WAIT, () -> sync.begun.get() == 3);
        sync.gates.get(2).countDown();
        assertNull(after.get(20, TimeUnit.SECONDS), "a caller of the next round gets its own, good sync");
    }
}
