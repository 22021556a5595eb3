package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.SpoolCounts;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The picture's bookkeeping, fed by hand in the orders a watch and this instance's own writes can
 * interleave in: the highest revision of an item wins, whichever path brought it, and a removal is
 * never undone by an older write arriving late.
 */
class MirrorCopyTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final MirrorCopy copy = new MirrorCopy();

    private static LedgerEntry pendingAt(int second) {
        return LedgerEntry.enqueued(T0.plusSeconds(second), "p");
    }

    private static LedgerEntry claimed(LedgerEntry from, int second) {
        return from.claimed(new ClaimName("x", Generation.at(1), T0.plusSeconds(second)), "a");
    }

    private List<String> ids(String state) {
        return copy.inState(state, 100, g -> true).stream().map(MirrorCopy.Glimpse::id).toList();
    }

    @Test
    void listingsAreOldestFirstAndCountsFollowEveryMove() {
        copy.delivered("b", 1, pendingAt(5));
        copy.delivered("a", 2, pendingAt(5)); // same moment: by id
        copy.delivered("c", 3, pendingAt(1));
        assertEquals(List.of("c", "a", "b"), ids("pending"));
        assertEquals(List.of("c"), copy.inState("pending", 1, g -> true).stream().map(MirrorCopy.Glimpse::id).toList());

        copy.delivered("c", 4, claimed(pendingAt(1), 9));
        copy.delivered("a", 5, pendingAt(5).settled(ItemState.DONE, T0.plusSeconds(20)));
        SpoolCounts counts = copy.counts(T0.plusSeconds(15));
        assertEquals(new SpoolCounts(1, 1, 0, 0, 1, 0, 10_000), counts, "b waited since 5 s: 10 s at 15 s");
        assertEquals(List.of("b"), ids("pending"));
        assertEquals(List.of("c"), ids("claimed"));
    }

    @Test
    void anOwnWriteShowsAtOnceAndTheWatchBringingItLaterChangesNothing() {
        copy.delivered("a", 1, pendingAt(0));
        LedgerEntry mine = claimed(pendingAt(0), 3);
        copy.wrote("a", 7, mine);
        assertEquals(List.of("a"), ids("claimed"), "shown before the watch tells of it");
        copy.delivered("x", 6, pendingAt(1)); // the watch still behind the write
        assertEquals(List.of("a"), ids("claimed"));
        copy.delivered("a", 7, mine);
        assertEquals(new SpoolCounts(1, 1, 0, 0, 0, 0, 0), copy.counts(T0.plusSeconds(1)));
    }

    @Test
    void theWatchBringingAnOwnWriteOrRemovalIsKnownWithoutDecodingAndOthersAreNot() {
        copy.wrote("a", 4, pendingAt(0));
        assertTrue(copy.passedIfKnown("a", 4), "its own write");
        assertTrue(copy.passedIfKnown("a", 3), "older than its own write");
        assertFalse(copy.passedIfKnown("a", 5), "someone else's later write");
        assertFalse(copy.passedIfKnown("b", 1), "an item it never saw");
        copy.removed("a", 4);
        assertTrue(copy.passedIfKnown("a", 4), "the removed revision");
        assertEquals(4, copy.delivered(), "the watermark moved with what was passed");
    }

    @Test
    void anOwnWriteTheWatchHasPassedIsNotTakenOverANewerEntry() {
        copy.delivered("a", 4, pendingAt(0));
        copy.delivered("a", 9, pendingAt(0).settled(ItemState.FAILED, T0.plusSeconds(2))); // someone else's, later
        copy.wrote("a", 5, claimed(pendingAt(0), 1)); // this instance's answer, arriving late
        assertEquals(List.of("a"), ids("failed"));
        assertTrue(ids("claimed").isEmpty());
    }

    @Test
    void anOwnRemovalIsNotUndoneByTheWatchBringingTheRemovedRevisionLate() {
        LedgerEntry done = pendingAt(0).settled(ItemState.DONE, T0.plusSeconds(1));
        copy.wrote("a", 3, done);
        copy.removed("a", 3); // purged at revision 3, before the watch brought revision 3
        copy.delivered("a", 3, done);
        assertTrue(ids("done").isEmpty(), "the late delivery of the removed revision brings nothing back");
        copy.deliveredRemoval("a", 4); // the delete marker
        copy.delivered("a", 5, pendingAt(9)); // enqueued again
        assertEquals(List.of("a"), ids("pending"));
    }

    @Test
    void aRemovalTheWatchPassedIsForgottenWithoutLettingAnOlderWriteBack() {
        LedgerEntry done = pendingAt(0).settled(ItemState.DONE, T0.plusSeconds(1));
        copy.delivered("a", 3, done);
        copy.removed("a", 3);
        copy.delivered("z", 10, pendingAt(1)); // the watch moves on, past the removal
        copy.forgetPassedRemovals();
        copy.wrote("a", 3, done); // a late own answer of the removed revision
        assertTrue(ids("done").isEmpty());
        assertEquals(List.of("z"), ids("pending"));
    }

    @Test
    void aDeleteMarkerRemovesAndAnUnknownStateIsKeptButNotCounted() {
        copy.delivered("a", 1, pendingAt(0));
        copy.deliveredRemoval("a", 2);
        LedgerEntry later = new LedgerEntry("parked", null, 1, null, null, null, T0, null, "p", null, null, "t");
        copy.delivered("b", 3, later);
        assertEquals(SpoolCounts.NONE, copy.counts(T0));
        assertEquals(List.of("b"), ids("parked"), "a state of a later build is kept for that build's listings");
        assertFalse(copy.complete());
        copy.markComplete(12);
        assertTrue(copy.complete());
        assertEquals(12, copy.delivered(), "the initial values cover what the stream held before the watch began");
    }
}
