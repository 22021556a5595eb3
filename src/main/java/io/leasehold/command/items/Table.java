package io.leasehold.command.items;

import io.leasehold.core.ItemId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Rows of text in aligned columns, two spaces apart; the last column is not padded. */
final class Table {

    private final List<List<String>> rows = new ArrayList<>();

    Table row(List<String> cells) {
        rows.add(cells.stream().map(Table::cell).toList());
        return this;
    }

    Table row(String... cells) {
        return row(Arrays.asList(cells)); // absent cells are null
    }

    /**
     * Absent is "-", and a value never breaks its row nor drives the terminal: a reason may hold a tail of an
     * exec child's stderr, so whitespace runs are one space and any other control character is escaped.
     */
    static String cell(String value) {
        return value == null ? "-" : ItemId.escaped(value.strip().replaceAll("\\s+", " "));
    }

    String render() {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] width = new int[columns];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + width[i] + "s  ", row.get(i)));
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString().stripTrailing();
    }
}
