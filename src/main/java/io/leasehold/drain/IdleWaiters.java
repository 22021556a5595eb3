package io.leasehold.drain;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/** Those waiting for the drain to run out of work: drain passes, and a stop letting work finish. */
final class IdleWaiters {

    private final List<UniEmitter<? super Boolean>> waiters = new CopyOnWriteArrayList<>();

    /**
     * True once the drain is idle, false when {@code within} passes first. {@code started} runs once
     * the waiter is registered (to set work going that will end in a signal); {@code idleNow} is
     * looked at then, so an idleness reached before the wait began is not missed.
     */
    Uni<Boolean> await(Duration within, Runnable started, BooleanSupplier idleNow) {
        return Uni.createFrom().<Boolean>emitter(waiter -> {
            waiters.add(waiter);
            waiter.onTermination(() -> waiters.remove(waiter));
            started.run();
            if (idleNow.getAsBoolean()) {
                waiter.complete(true);
            }
        }).ifNoItem().after(within).recoverWithItem(false);
    }

    void signal() {
        for (UniEmitter<? super Boolean> waiter : waiters) {
            waiter.complete(true);
        }
    }
}
