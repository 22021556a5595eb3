package io.leasehold.command.items;

import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemListing;
import io.leasehold.spool.ItemPage;
import io.leasehold.spool.ItemView;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code items list}: as {@code GET /items?state=S&limit=N&q=TEXT&after=CURSOR}; where the API's Link header names
 * the next page, the table ends with the {@code --after} to give (with {@code --json}, said on stderr).
 */
@Command(name = "list", description = "Items in one state, oldest first (scheduled and retrying: soonest run-at first), "
        + "a page at a time.")
final class ListItems extends SpoolAction {

    static final int MAX_LIMIT = 10_000;

    @Option(names = "--state", defaultValue = "pending", converter = Values.Listed.class, paramLabel = "STATE",
            description = "pending (the default), claimed (held now), scheduled, retrying (both waiting for "
                    + "their time), done or failed.")
    String state;

    @Option(names = "--limit", defaultValue = "100", paramLabel = "N", description = "At most N items, 1 to "
            + MAX_LIMIT + " (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--search", paramLabel = "TEXT", description = "Only items whose id starts with TEXT (ids are "
            + "case-sensitive), or whose reason contains it in any case.")
    String search;

    @Option(names = "--after", paramLabel = "CURSOR", description = "The next page: the cursor the page before ended with.")
    String after;

    private ItemListing.Position from;

    @Override
    void check(Clock clock) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw usage("--limit must be a whole number between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        try {
            from = after == null ? null : ItemListing.Position.parse(after);
        } catch (IllegalArgumentException e) {
            throw usage("--after must be the cursor a page ended with (\"more: ... --after CURSOR\"), got '"
                    + ItemId.printable(after) + "'");
        }
        if (search != null && search.chars().anyMatch(Character::isISOControl)) {
            throw usage("--search must be text on one line");
        }
    }

    @Override
    void run(OpenSpool spool) throws IOException {
        ItemPage page = spool.store.page(state, new ItemListing(limit, from, search));
        List<ItemView> items = page.items();
        String more = page.next().map(cursor -> "more: java -jar quarkus-run.jar items list --state " + state + " --limit "
                + limit + (search == null ? "" : " --search '" + search.replace("'", "'\\''") + "'") + " --after " + cursor)
                .orElse(null);
        print(items, ItemTable.list(items, "no " + state + " items" + (search == null ? "" : " match '" + search + "'")) + (more == null ? "" : "\n" + more));
        if (json && more != null) {
            spec.commandLine().getErr().println(more);
        }
    }
}
