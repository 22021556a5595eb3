package io.leasehold.command.items;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.ItemView;
import io.leasehold.spool.PastAttempt;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ItemTableTest {

    private static final Instant T = Instant.parse("2026-12-02T06:00:00Z");

    @Test
    void aListingShowsOnlyTheColumnsSomeRowHasAligned() {
        ItemView a = new ItemView("a", "failed", 2, "2-x", null, null, "exit 3:\n  boom", T);
        ItemView longer = new ItemView("long-id", "failed", 1, "1-y", null, null, null, T)
                .withTimes(T, T.plusSeconds(1));
        assertEquals("""
                ID       STATE   ATTEMPT  ENQUEUED              SETTLED               REASON
                a        failed  2        -                     -                     exit 3: boom
                long-id  failed  1        2026-12-02T06:00:00Z  2026-12-02T06:00:01Z  -""",
                ItemTable.list(List.of(a, longer), "none"));
        assertEquals("no done items", ItemTable.list(List.of(), "no done items"));
    }

    @Test
    void longReasonsAreCutInAListingOnly() {
        String reason = "x".repeat(100);
        ItemView item = new ItemView("a", "failed", 1, "1-x", null, null, reason, T);
        String row = ItemTable.list(List.of(item), "").lines().toList().get(1);
        assertEquals(ItemTable.REASON_WIDTH, row.substring(row.indexOf("xxx")).length());
        assertEquals("reason      " + reason, ItemTable.detail(item).lines().filter(l -> l.startsWith("reason")).findFirst()
                .orElseThrow());
    }

    @Test
    void oneItemIsShownFieldByFieldWithItsHistory() {
        ItemView item = new ItemView("a", "done", 1, "1-x", null, null, null, T).withTimes(T, T.plusSeconds(2))
                .withHistory(List.of(new PastAttempt(1, "h1", 0L, T, T.plusSeconds(2), "done", null)));
        assertEquals("""
                id          a
                state       done
                attempt     1
                generation  1-x
                enqueued    2026-12-02T06:00:00Z
                settled     2026-12-02T06:00:02Z
                history:
                  ATTEMPT  HOLDER  EPOCH  STARTED               ENDED                 OUTCOME  REASON
                  1        h1      0      2026-12-02T06:00:00Z  2026-12-02T06:00:02Z  done     -""",
                ItemTable.detail(item));
    }

    /** A reason is a tail of an exec child's stderr: no escape sequence of it reaches the operator's terminal. */
    @Test
    void controlCharactersInAnyCellAreEscaped() {
        String hostile = "exit 1: \u001b]0;owned\u0007\u001b[2J\u009b31m\u007fdone\ttab";
        ItemView item = new ItemView("a", "failed", 1, "h\u001bx", null, null, hostile, T)
                .withHistory(List.of(new PastAttempt(1, "h\u0085", 0L, T, T, "failed", hostile)));
        String escaped = "exit 1: \\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\x7fdone tab";
        for (String shown : List.of(ItemTable.list(List.of(item), ""), ItemTable.detail(item))) {
            assertTrue(shown.codePoints().noneMatch(c -> (c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f)), shown);
            assertTrue(shown.contains(escaped), shown);
        }
        assertTrue(ItemTable.detail(item).contains("generation  h\\x1bx"), ItemTable.detail(item));
        assertTrue(ItemTable.detail(item).contains("h\\x85"), ItemTable.detail(item));
    }
}
