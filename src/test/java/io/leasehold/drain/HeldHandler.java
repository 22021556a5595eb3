package io.leasehold.drain;

import io.leasehold.core.Outcome;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.leasehold.testing.Await;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A handler whose attempts last until the test ends them, recording what it was given and what was cancelled. */
final class HeldHandler implements Handler {

    private static final Duration WAIT = Duration.ofSeconds(10);

    final List<WorkItem> started = new CopyOnWriteArrayList<>();
    final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    /** The thread each item's handler was called on. */
    final Map<String, String> calledOn = new ConcurrentHashMap<>();
    private final Map<String, UniEmitter<? super Outcome>> running = new ConcurrentHashMap<>();

    /** When set, every call of handle records the item and throws this at once, as a broken bean would. */
    volatile Throwable throwing;

    @Override
    public Uni<Outcome> handle(WorkItem item) {
        calledOn.put(item.id(), Thread.currentThread().getName());
        Throwable broken = throwing;
        if (broken != null) {
            started.add(item);
            if (broken instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw (Error) broken;
        }
        return Uni.createFrom().<Outcome>emitter(emitter -> {
            emitter.onTermination(() -> running.remove(item.id(), emitter));
            running.put(item.id(), emitter);
            started.add(item);
        }).onCancellation().invoke(() -> cancelled.add(item.id()));
    }

    /** Waits until an attempt at {@code id} is running here, and returns it. */
    WorkItem awaitStarted(String id, int attempt) {
        Await.until(id + " attempt " + attempt + " starts", WAIT, () -> startedAttempts(id).contains(attempt)
                && running.containsKey(id));
        return started.stream().filter(w -> w.id().equals(id) && w.attempt() == attempt).findFirst().orElseThrow();
    }

    List<Integer> startedAttempts(String id) {
        return started.stream().filter(w -> w.id().equals(id)).map(WorkItem::attempt).toList();
    }

    void finish(String id, Outcome outcome) {
        UniEmitter<? super Outcome> emitter = running.get(id);
        if (emitter == null) {
            throw new AssertionError("no attempt at " + id + " is running");
        }
        emitter.complete(outcome);
    }

    /** Ends the running attempt at {@code id} with a failed Uni. */
    void fail(String id, Throwable error) {
        UniEmitter<? super Outcome> emitter = running.get(id);
        if (emitter == null) {
            throw new AssertionError("no attempt at " + id + " is running");
        }
        emitter.fail(error);
    }

    void awaitCancelled(String id) {
        Await.until(id + " is cancelled", WAIT, () -> cancelled.contains(id));
    }
}
