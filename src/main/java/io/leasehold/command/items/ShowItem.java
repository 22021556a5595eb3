package io.leasehold.command.items;

import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code items show ID}: as {@code GET /items/{id}}; an unknown id is exit 1. */
@Command(name = "show", description = "One item: its state, times, holder and the history of its latest attempts.")
final class ShowItem extends SpoolAction {

    @Parameters(paramLabel = "ID", converter = Values.Id.class, description = "The item's id.")
    String id;

    @Override
    void run(OpenSpool spool) throws IOException {
        ItemView item = spool.store.lookup(id).orElseThrow(() -> new ItemStore.NoSuchItemException(id));
        print(item, ItemTable.detail(item));
    }
}
