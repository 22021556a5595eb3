package io.leasehold.api;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Runs a blocking spool call on the worker pool, never on the event loop. */
final class OnWorkers {

    @FunctionalInterface
    interface IoCall<T> {
        T call() throws IOException;
    }

    private OnWorkers() {
    }

    static <T> Uni<T> io(IoCall<T> call) {
        return Uni.createFrom().item(() -> {
            try {
                return call.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
