package io.leasehold.command.items;

import io.leasehold.spool.Anomaly;
import io.leasehold.spool.SpoolCounts;
import io.leasehold.wire.SpoolView;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code spool status}: as {@code GET /spool}, counts per state and the oldest pending item's age. */
@Command(name = "status", description = "Items per state (claimed: held now; scheduled and retrying: waiting "
        + "for their time), the oldest pending item's age, and entries left alone as not items.")
final class SpoolStatus extends SpoolAction {

    @Override
    void run(OpenSpool spool) throws IOException {
        List<Anomaly> ignored = spool.anomalies(); // the drain's scan first, as a service's drain has made it
        SpoolCounts counts = spool.store.counts();
        SpoolView view = new SpoolView(counts, ignored);
        Table table = new Table()
                .row("pending", Long.toString(counts.pending()))
                .row("claimed", Long.toString(counts.claimed()))
                .row("scheduled", Long.toString(counts.scheduled()))
                .row("retrying", Long.toString(counts.retrying()))
                .row("done", Long.toString(counts.done()))
                .row("failed", Long.toString(counts.failed()))
                .row("oldest pending", counts.pending() == 0 ? "-"
                        : Duration.ofMillis(counts.oldestPendingAgeMs()).toString().substring(2).toLowerCase() + " ago");
        for (Anomaly anomaly : view.ignored()) {
            table.row("ignored", anomaly.folder() + "/" + anomaly.name() + ": " + anomaly.problem());
        }
        print(view, table.render());
    }
}
