package io.leasehold.command.items;

import io.leasehold.core.Clock;
import io.leasehold.spool.ItemView;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import io.leasehold.wire.Retried;

/**
 * {@code items retry ID}: as {@code POST /items/{id}/retry}; {@code items retry --failed [--reason TEXT]}: as
 * {@code POST /items/retry?state=failed&reason=TEXT}, through the same {@link io.leasehold.spool.BulkActions}.
 */
@Command(name = "retry", description = "Move a failed item back to pending, its attempts counted afresh; or, with "
        + "--failed, every failed item (whose reason contains TEXT).")
final class RetryItems extends SpoolAction {

    @Parameters(paramLabel = "ID", arity = "0..1", converter = Values.Id.class, description = "The item's id.")
    String id;

    @Option(names = "--failed", description = "Every failed item (instead of one ID).")
    boolean failed;

    @Option(names = "--reason", paramLabel = "TEXT", description = "With --failed: only those whose reason contains TEXT.")
    String reason;

    @Override
    void check(Clock clock) {
        if ((id == null) == !failed) {
            throw usage("give one ID or --failed");
        }
        if (reason != null && !failed) {
            throw usage("--reason goes with --failed");
        }
    }

    @Override
    void run(OpenSpool spool) throws IOException {
        if (id != null) {
            ItemView retried = spool.store.retry(id);
            print(retried, ItemTable.list(List.of(retried), ""));
            return;
        }
        long n = spool.bulk.retryFailed(reason).toCompletableFuture().join();
        print(new Retried(n), "retried " + n);
    }
}
