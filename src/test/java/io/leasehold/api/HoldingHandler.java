package io.leasehold.api;

import io.leasehold.core.Outcome;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * A handler chosen with leasehold.handler=test-holding: an item whose payload is "hold" is held (its claim
 * renewed at every renewal tick) until {@link #release()}; every other item is done at once.
 */
@Named("test-holding")
@Singleton
public class HoldingHandler implements Handler {

    private volatile CompletableFuture<Outcome> held = new CompletableFuture<>();

    @Override
    public Uni<Outcome> handle(WorkItem item) {
        if (new String(item.payload(), StandardCharsets.UTF_8).equals("hold")) {
            return Uni.createFrom().completionStage(held);
        }
        return Uni.createFrom().item(Outcome.done());
    }

    void release() {
        CompletableFuture<Outcome> was = held;
        held = new CompletableFuture<>();
        was.complete(Outcome.done());
    }
}
