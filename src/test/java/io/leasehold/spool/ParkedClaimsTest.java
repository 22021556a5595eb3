package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.Generation;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parked claims the census counts apart: own moves count at once, a recount's listing brings in the
 * others' and drops what is gone, and a listing never undoes an own move made while it ran.
 */
class ParkedClaimsTest {

    private static final Generation G1 = Generation.at(1);
    private static final Generation G2 = Generation.at(2);

    private final ParkedClaims parked = new ParkedClaims();

    private void assertCounts(long scheduled, long retrying) {
        assertEquals(scheduled, parked.scheduled(), "scheduled");
        assertEquals(retrying, parked.retrying(), "retrying");
    }

    @Test
    void ownParksAndTakesCountAtOnceAndATakeOfAnotherGenerationLeavesTheParkedOneAlone() {
        parked.parked("a", G1, AttemptRecord.Kind.SCHEDULED);
        parked.parked("b", G1, AttemptRecord.Kind.RETRY);
        assertCounts(1, 1);

        parked.unparked("b", G2); // not the parked claim: a stale generation
        assertCounts(1, 1);
        parked.unparked("b", G1);
        parked.unparked("b", G1); // twice is once
        assertCounts(1, 0);
        parked.parked("a", G1, AttemptRecord.Kind.RETRY); // the same claim parked again, for a retry now
        assertCounts(0, 1);
    }

    @Test
    void aListingBringsInOtherInstancesParksAndDropsWhatIsGone() {
        parked.parked("gone", G1, AttemptRecord.Kind.RETRY);
        Map<String, ParkedClaims.Parked> before = parked.snapshot();

        parked.listed(Map.of("theirs", new ParkedClaims.Parked(G1, AttemptRecord.Kind.SCHEDULED)), before);

        assertCounts(1, 0);
        assertEquals(Map.of("theirs", new ParkedClaims.Parked(G1, AttemptRecord.Kind.SCHEDULED)), parked.snapshot());
    }

    @Test
    void aListingNeverUndoesAnOwnMoveMadeWhileItRan() {
        parked.parked("taken", G1, AttemptRecord.Kind.RETRY);
        Map<String, ParkedClaims.Parked> before = parked.snapshot();
        ParkedClaims.Parked listedTaken = new ParkedClaims.Parked(G1, AttemptRecord.Kind.RETRY);
        // While the listing ran: this instance took "taken" and scheduled "new", which the listing missed.
        parked.unparked("taken", G1);
        parked.parked("new", G1, AttemptRecord.Kind.SCHEDULED);

        parked.listed(Map.of("taken", listedTaken), before);

        assertCounts(1, 0);
        assertEquals(Map.of("new", new ParkedClaims.Parked(G1, AttemptRecord.Kind.SCHEDULED)), parked.snapshot());
    }

    @Test
    void countsNeverReadBelowZero() {
        parked.unparked("never-parked", G1);
        assertCounts(0, 0);
    }
}
