package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.PastAttempt;
import java.nio.file.Files;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A claim looks for an item's records once, at its claim, and an item found with none (a new item's first
 * claim, the drain's usual case) has no history to carry, keep or drop after that. These pin what that
 * must never cost: a hand-back's count, a retried item's clean slate, a history begun by the claim itself.
 */
class RecordLooksTest extends StoreTestBase {

    private static final PastAttempt DONE = new PastAttempt(2, "web1", 0L, null, null, "done", null);

    @Test
    void anItemHandedBackWithARecordIsClaimedAtItsAttemptWithItsCounts() throws Exception {
        Files.writeString(layout.file(SpoolFolder.PENDING, "h"), "payload");
        ClaimName first = spool.claim("h", clock.now()).orElseThrow();
        spool.writeRecord("h", first.generation(), new AttemptRecord(AttemptRecord.Kind.NOTE, 2, "abandoned twice"));
        assertTrue(spool.handBack(first));

        ClaimName again = spool.claim("h", clock.now()).orElseThrow();
        assertEquals(first.generation().attempt(), again.generation().attempt());
        assertEquals(2, spool.record("h", again.generation()).orElseThrow().abandoned(),
                "the counts so far go on with the item");
    }

    @Test
    void aClaimOfAnItemWithRecordsOfEarlierClaimsDropsThemOnceItHoldsIt() throws Exception {
        Files.writeString(layout.file(SpoolFolder.PENDING, "r"), "payload");
        Generation old = Generation.parse("3-old").orElseThrow(); // a lost holder's, written late
        spool.writeRecord("r", old, new AttemptRecord(AttemptRecord.Kind.FAILED, 2, "the earlier failure"));

        ClaimName claim = spool.claim("r", clock.now()).orElseThrow();
        assertEquals(Optional.empty(), spool.record("r", old), "dropped by the claim itself, before any settlement");
        assertTrue(spool.settleDone(claim, DONE));
        assertFalse(Files.exists(layout.file(SpoolFolder.ATTEMPTS, "r")), "nothing of it is left");
    }

    @Test
    void aFirstClaimThatWritesARecordKeepsItsHistoryWhenDone() throws Exception {
        Files.writeString(layout.file(SpoolFolder.PENDING, "n"), "payload");
        ClaimName claim = spool.claim("n", clock.now()).orElseThrow();
        assertFalse(Files.exists(layout.file(SpoolFolder.ATTEMPTS, "n")), "a new item's claim writes no record");
        spool.writeRecord("n", claim.generation(), new AttemptRecord(AttemptRecord.Kind.NOTE, 1, "abandoned once"));

        assertTrue(spool.settleDone(claim, DONE));
        AttemptRecord kept = spool.record("n", claim.generation()).orElseThrow();
        assertEquals(AttemptRecord.Kind.DONE, kept.kind(), "the claim's record is the one done/ keeps");
        assertEquals(1, kept.abandoned());
    }

    @Test
    void aNewItemsClaimAndSettlementLeaveNoRecordBehind() throws Exception {
        Files.writeString(layout.file(SpoolFolder.PENDING, "plain"), "payload");
        ClaimName claim = spool.claim("plain", clock.now()).orElseThrow();
        assertTrue(spool.settleDone(claim, DONE));
        assertTrue(Files.exists(layout.file(SpoolFolder.DONE, "plain")));
        assertFalse(Files.exists(layout.file(SpoolFolder.ATTEMPTS, "plain")));
        assertEquals(Optional.empty(), spool.record("plain", claim.generation()));
    }
}
