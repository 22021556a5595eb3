package io.leasehold.lease;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one blocking lease-store call on a thread of its own pool and gives it up as indeterminate
 * when it does not answer within its bound: a call that did not answer in time is never taken as a
 * success. The abandoned call runs on to its end on its thread; the caller does not wait for it.
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
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, "no time left (" + bound + ")", null);
        }
        CompletableFuture<T> answer;
        try {
            answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return storeCall.call();
                } catch (LeaseStoreException e) {
                    throw new CompletionException(e);
                }
            }, workers);
        } catch (RejectedExecutionException e) {
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, "no thread for the call", e);
        }
        try {
            return answer.get(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, "no answer within " + bound, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, "interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException wrapped ? wrapped.getCause() : e.getCause();
            if (cause instanceof LeaseStoreException refused) {
                throw refused;
            }
            throw new LeaseStoreException(LeaseStoreException.Kind.INDETERMINATE, String.valueOf(cause), cause);
        }
    }
}
