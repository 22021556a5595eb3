package io.leasehold.command.items;

import io.leasehold.wire.QueryTimes;
import io.leasehold.core.Clock;
import io.leasehold.spool.BulkActions;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import io.leasehold.wire.Purged;

/**
 * {@code items purge ID}: removes one settled item; {@code items purge --state done|failed [--older-than D]}: as
 * {@code DELETE /items?state=S&olderThan=D}, through the same {@link BulkActions}. Either way the ids may be
 * enqueued again.
 */
@Command(name = "purge", description = "Remove a settled (done or failed) item; or, with --state, every item in "
        + "that state (settled longer ago than --older-than). Their ids may be enqueued again.")
final class PurgeItems extends SpoolAction {

    @Parameters(paramLabel = "ID", arity = "0..1", converter = Values.Id.class, description = "The item's id.")
    String id;

    @Option(names = "--state", paramLabel = "STATE", converter = Values.Settled.class,
            description = "done or failed: every item in it (instead of one ID).")
    String state;

    @Option(names = "--older-than", paramLabel = "DURATION", converter = Values.Span.class,
            description = "With --state: only items settled longer ago than this (PT30S, 30s, 12h, 7d).")
    Duration olderThan;

    @Override
    void check(Clock clock) {
        if ((id == null) == (state == null)) {
            throw usage("give one ID or --state done|failed");
        }
        if (olderThan != null && state == null) {
            throw usage("--older-than goes with --state");
        }
    }

    @Override
    void run(OpenSpool spool) throws IOException {
        long n = id != null ? purgeOne(spool.store) : spool.bulk.purge(ItemState.parse(state).orElseThrow(),
                olderThan == null ? null : QueryTimes.ago(spool.clock.now(), olderThan), BulkActions.Slice.WHOLE)
                .toCompletableFuture().join().moved();
        print(new Purged(n), "purged " + n);
    }

    /** Only a settled item: one still pending or running is refused, as a bulk purge never touches it. */
    private long purgeOne(ItemStore store) throws IOException {
        store.purgeSettled(id); // the call of POST /items/{id}/purge
        return 1;
    }
}
