package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
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
        long mark = parked.mark();

        parked.listed(Map.of("theirs", new ParkedClaims.Parked(G1, AttemptRecord.Kind.SCHEDULED)), mark);

        assertCounts(1, 0);
    }

    @Test
    void aListingNeverUndoesAnOwnTakeOrScheduleMadeWhileItRan() {
        parked.parked("taken", G1, AttemptRecord.Kind.RETRY);
        long mark = parked.mark();
        // While the listing ran: this instance took "taken" and scheduled "new", which the listing missed.
        parked.unparked("taken", G1);
        parked.parked("new", G1, AttemptRecord.Kind.SCHEDULED);

        parked.listed(Map.of("taken", new ParkedClaims.Parked(G1, AttemptRecord.Kind.RETRY)), mark);

        assertCounts(1, 0);
    }

    /** A retry's record is written (counted), a listing begins and sees the held name, then the park's rename. */
    @Test
    void aRetryParkWhoseRenameTheListingMissedStaysCounted() {
        parked.parked("r", G1, AttemptRecord.Kind.RETRY);
        long mark = parked.mark();
        parked.renamed("r", G1);

        parked.listed(Map.of(), mark);

        assertCounts(0, 1);
    }

    /** A park whose rename never came (the claim was lost meanwhile) is dropped by the next listing. */
    @Test
    void aRetryParkThatWasLostIsDroppedByTheNextListing() {
        parked.parked("lost", G1, AttemptRecord.Kind.RETRY);
        parked.listed(Map.of(), parked.mark());

        assertCounts(0, 0);
    }

    /** Another instance parked x; this instance takes it (a new generation) while a listing reads it, then settles it. */
    @Test
    void aTakeOfAClaimNotYetKnownAsParkedIsNotUndoneByTheListing() {
        long mark = parked.mark();
        parked.unparked("x", G1); // the take: not known as parked here yet
        parked.listed(Map.of("x", new ParkedClaims.Parked(G1, AttemptRecord.Kind.RETRY)), mark);
        parked.unparked("x", G2); // settled by this instance

        assertCounts(0, 0);
    }

    /** A cancel takes s, the listing sees the cancel's claim, the cancel's undo parks s again. */
    @Test
    void aCancelUndoneWhileTheListingRanStaysScheduled() {
        parked.parked("s", G1, AttemptRecord.Kind.SCHEDULED);
        long mark = parked.mark();
        parked.unparked("s", G1);
        parked.parked("s", G1, AttemptRecord.Kind.SCHEDULED);

        parked.listed(Map.of(), mark);

        assertCounts(1, 0);
    }

    @Test
    void aRenewalOfAHeldClaimChangesNothing() {
        assertEquals(false, parked.renamed("held", G1));
        parked.listed(Map.of(), parked.mark());
        assertCounts(0, 0);
    }

    @Test
    void countsNeverReadBelowZero() {
        parked.unparked("never-parked", G1);
        assertCounts(0, 0);
    }
}
