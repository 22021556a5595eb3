package io.leasehold.command.items;

import io.leasehold.spool.ItemView;
import io.leasehold.spool.PastAttempt;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Items as a table for people: the id and state, then only the columns some row has a value for
 * (attempt, holder, enqueued, run-at, lease-expires, settled, reason), so a listing of one state shows
 * what applies to it. One item is shown field by field, with its history.
 */
final class ItemTable {

    /** Reasons are cut here in a listing; {@code show} and {@code --json} give them whole. */
    static final int REASON_WIDTH = 60;

    private record Column(String title, Function<ItemView, String> value) {
    }

    private static final List<Column> COLUMNS = List.of(
            new Column("ID", ItemView::id),
            new Column("STATE", ItemView::state),
            new Column("ATTEMPT", v -> text(v.attempt())),
            new Column("HOLDER", ItemView::holder),
            new Column("ENQUEUED", v -> text(v.enqueuedAt())),
            new Column("RUN-AT", v -> text(v.runAt())),
            new Column("LEASE-EXPIRES", v -> text(v.leaseExpiresAt())),
            new Column("SETTLED", v -> text(v.settledAt())),
            new Column("REASON", v -> cut(v.reason())));

    private ItemTable() {
    }

    /** A listing; {@code none} is said when there is nothing to list. */
    static String list(List<ItemView> items, String none) {
        if (items.isEmpty()) {
            return none;
        }
        List<Column> shown = COLUMNS.stream().filter(c -> c.title().equals("ID") || c.title().equals("STATE")
                || items.stream().map(c.value()).anyMatch(Objects::nonNull)).toList();
        Table table = new Table().row(shown.stream().map(Column::title).toList());
        for (ItemView item : items) {
            table.row(shown.stream().map(c -> c.value().apply(item)).toList());
        }
        return table.render();
    }

    /** One item, a field a line, then its attempts. */
    static String detail(ItemView item) {
        Table fields = new Table();
        field(fields, "id", item.id());
        field(fields, "state", item.state());
        field(fields, "attempt", text(item.attempt()));
        field(fields, "generation", item.generation());
        field(fields, "holder", item.holder());
        field(fields, "enqueued", text(item.enqueuedAt()));
        field(fields, "run-at", text(item.runAt()));
        field(fields, "lease-expires", text(item.leaseExpiresAt()));
        field(fields, "settled", text(item.settledAt()));
        field(fields, "reason", item.reason());
        List<PastAttempt> history = item.history() == null ? List.of() : item.history();
        if (history.isEmpty()) {
            return fields.render();
        }
        Table attempts = new Table().row("ATTEMPT", "HOLDER", "EPOCH", "STARTED", "ENDED", "OUTCOME", "REASON");
        for (PastAttempt a : history) {
            attempts.row(text(a.attempt()), a.holder(), text(a.epoch()), text(a.startedAt()), text(a.endedAt()),
                    a.outcome(), cut(a.reason()));
        }
        return fields.render() + "\nhistory:\n" + attempts.render().indent(2).stripTrailing();
    }

    private static void field(Table fields, String name, String value) {
        if (value != null) {
            fields.row(name, value);
        }
    }

    private static String text(Object value) {
        return value == null ? null : value instanceof Instant at ? at.toString() : value.toString();
    }

    private static String cut(String reason) {
        if (reason == null) {
            return null;
        }
        String line = Table.cell(reason); // escaped before it is cut: a cut may split an escape, never let a raw control character through
        return line.length() <= REASON_WIDTH ? line : line.substring(0, REASON_WIDTH - 1) + "…";
    }
}
