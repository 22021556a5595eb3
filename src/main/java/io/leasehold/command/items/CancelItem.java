package io.leasehold.command.items;

import io.leasehold.spool.ItemView;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code items cancel ID}: as {@code DELETE /items/{id}}; refused (exit 1) unless pending or scheduled. */
@Command(name = "cancel", description = "Cancel a pending or scheduled item: it goes to failed with the reason "
        + "cancelled. One that is running (claimed, retrying) or settled is refused.")
final class CancelItem extends SpoolAction {

    @Parameters(paramLabel = "ID", converter = Values.Id.class, description = "The item's id.")
    String id;

    @Override
    void run(OpenSpool spool) throws IOException {
        ItemView cancelled = spool.store.cancel(id);
        print(cancelled, ItemTable.list(List.of(cancelled), ""));
    }
}
