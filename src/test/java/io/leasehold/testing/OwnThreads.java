package io.leasehold.testing;

import java.util.concurrent.Executor;

/**
 * A thread of its own for each task, for tests whose tasks must run at the same moment (a barrier between
 * them). On 2 cores the common pool's parallelism is 1: Java 17's {@code CompletableFuture.supplyAsync} then
 * starts a thread per task, but Java 25's runs them in that pool one after the other, and two tasks meeting at
 * a barrier waited there until its timeout.
 */
public final class OwnThreads {

    /** Starts each task on a new daemon thread. */
    public static final Executor EACH = task -> {
        Thread t = new Thread(task, "test-own-thread");
        t.setDaemon(true);
        t.start();
    };

    private OwnThreads() {
    }
}
