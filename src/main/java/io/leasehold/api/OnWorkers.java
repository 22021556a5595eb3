package io.leasehold.api;

import io.leasehold.workers.Blocking;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/** Runs a blocking spool call on the worker pool, never on the event loop. */
final class OnWorkers {

    private OnWorkers() {
    }

    static <T> Uni<T> io(Blocking.IoCall<T> call) {
        return Blocking.call(Infrastructure.getDefaultWorkerPool(), call);
    }
}
