package io.leasehold.lease;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Runs the lease's steps one at a time, in the order given, on threads of {@code on}: a tick, a
 * take that falls due between ticks and the release can never run at once. A task given while one
 * runs waits its turn; nothing is ever run twice at once, whichever thread gives it.
 */
final class SerialSteps {

    private final Executor on;
    private final Queue<Runnable> queue = new ArrayDeque<>();
    private boolean running;

    SerialSteps(Executor on) {
        this.on = on;
    }

    /** Completes once {@code step} has run (exceptionally if it threw). */
    CompletableFuture<Void> submit(Runnable step) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable task = () -> {
            try {
                step.run();
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        };
        boolean start;
        synchronized (queue) {
            queue.add(task);
            start = !running;
            running = true;
        }
        if (start) {
            try {
                on.execute(this::drain);
            } catch (RuntimeException e) { // a pool that is shut down: nothing will run
                synchronized (queue) {
                    queue.clear();
                    running = false;
                }
                done.completeExceptionally(e);
            }
        }
        return done;
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (queue) {
                next = queue.poll();
                if (next == null) {
                    running = false;
                    return;
                }
            }
            next.run();
        }
    }
}
