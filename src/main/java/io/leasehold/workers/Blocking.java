package io.leasehold.workers;

import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Executor;

/** Runs one blocking file or process call on a worker pool as a Uni, never on the calling event loop. */
public final class Blocking {

    @FunctionalInterface
    public interface IoCall<T> {
        T call() throws IOException;
    }

    @FunctionalInterface
    public interface IoAction {
        void run() throws IOException;
    }

    private Blocking() {
    }

    public static <T> Uni<T> call(Executor workers, IoCall<T> call) {
        return Uni.createFrom().item(() -> {
            try {
                return call.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).runSubscriptionOn(workers);
    }

    public static Uni<Void> run(Executor workers, IoAction action) {
        return call(workers, () -> {
            action.run();
            return null;
        });
    }
}
