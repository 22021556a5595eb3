package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenario 1 of issue 9, in small: the gate passed under epoch e, the attempt's start waits for a worker
 * (every worker held by slow uploads), the lease is lost and the attempt cancelled. When a worker
 * frees up, the child is still spawned, registered and given its go under epoch e; only then does
 * the (already fired) cancellation kill it.
 */
class ExecStartAfterLossTest {

    @TempDir
    Path dir;

    @Test
    void aCancelledAttemptQueuedOnAStarvedPoolNeverStartsItsChild() throws Exception {
        ExecutorService workers = Executors.newSingleThreadExecutor();
        CountDownLatch uploads = new CountDownLatch(1);
        workers.execute(() -> {
            try {
                uploads.await(); // the only worker is taken by a slow upload
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        List<Long> registered = new CopyOnWriteArrayList<>();
        ChildGroups groups = new ChildGroups() {
            @Override
            public void register(long pgid) {
                registered.add(pgid); // called right before the go is written
            }

            @Override
            public void deregister(long pgid) {
            }
        };
        Path acted = dir.resolve("acted");
        ExecHandler handler = new ExecHandler("echo $LEASEHOLD_EPOCH >> " + acted, workers, groups);
        var attempt = handler.handle(new WorkItem("item-1", 1, new byte[0], 7, Instant.EPOCH)).subscribe().with(o -> { }, f -> { });
        attempt.cancel(); // the lease is lost: drainer.stopNow() cancels the attempt
        uploads.countDown(); // later, a worker frees up
        workers.shutdown();
        workers.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(registered.isEmpty(), "a child of epoch 7 was spawned and given its go after the loss"
                + " (pgid " + registered + (Files.exists(acted) ? ", and it acted: " + Files.readString(acted).strip() : "")
                + ")");
    }
}
