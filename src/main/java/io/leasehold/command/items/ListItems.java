package io.leasehold.command.items;

import io.leasehold.core.Clock;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemView;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code items list}: as {@code GET /items?state=S&limit=N}. */
@Command(name = "list", description = "Items in one state, oldest first (scheduled and retrying: soonest run-at first).")
final class ListItems extends SpoolAction {

    static final int MAX_LIMIT = 10_000;

    @Option(names = "--state", defaultValue = "pending", converter = Values.Listed.class, paramLabel = "STATE",
            description = "pending (the default), claimed (held now), scheduled, retrying (both waiting for "
                    + "their time), done or failed.")
    String state;

    @Option(names = "--limit", defaultValue = "100", paramLabel = "N", description = "At most N items, 1 to "
            + MAX_LIMIT + " (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    void check(Clock clock) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw usage("--limit must be a whole number between 1 and " + MAX_LIMIT + ", got " + limit);
        }
    }

    @Override
    void run(OpenSpool spool) throws IOException {
        List<ItemView> items = state.equals(ItemView.SCHEDULED) || state.equals(ItemView.RETRYING)
                ? spool.store.listParked(state, limit)
                : spool.store.list(ItemState.parse(state).orElseThrow(), limit);
        print(items, ItemTable.list(items, "no " + state + " items"));
    }
}
