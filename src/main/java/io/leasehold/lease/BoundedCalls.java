package io.leasehold.lease;

import io.smallrye.mutiny.Uni;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Runs one blocking lease-store call on a worker thread and gives it up as indeterminate when it does
 * not answer within its bound: a call that did not answer in time is never taken as a success.
 */
final class BoundedCalls {

    @FunctionalInterface
    interface StoreCall<T> {
        T call() throws LeaseStoreException;
    }

    static final Duration SHORTEST = Duration.ofMillis(1);

    private final Executor workers;

    BoundedCalls(Executor workers) {
        this.workers = workers;
    }

    <T> T call(StoreCall<T> storeCall, Duration bound) throws LeaseStoreException {
        if (bound.compareTo(SHORTEST) < 0) {
            // Timers cannot be set below a millisecond (Vert.x refuses, and the call would never end).
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, "no time left (" + bound + ")", null);
        }
        try {
            return Uni.createFrom().item(() -> {
                try {
                    return storeCall.call();
                } catch (LeaseStoreException e) {
                    throw new CompletionException(e);
                }
            }).runSubscriptionOn(workers).ifNoItem().after(bound)
                    .failWith(() -> new CompletionException(new LeaseStoreException(
                            LeaseStoreException.Kind.INDETERMINATE, "no answer within " + bound, null)))
                    .await().indefinitely();
        } catch (CompletionException e) {
            if (e.getCause() instanceof LeaseStoreException cause) {
                throw cause;
            }
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, String.valueOf(e.getCause()), e);
        } catch (UncheckedIOException | IllegalStateException e) {
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, e.getMessage(), e);
        }
    }
}
