package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.spool.AttemptRecord;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How refusals as stale are counted from the reason parked by the attempt before. */
class StaleRefusalsTest {

    /** What the claim took over from the one before it carries: the reason that one was parked with. */
    static Optional<AttemptRecord> carried(String text) {
        return Optional.of(AttemptRecord.note(0, text));
    }

    @Test
    void refusalsInARowAreReadFromTheReasonCarriedOverFromTheAttemptBefore() {
        String twice = StaleRefusals.parked(2, "HTTP 409");
        assertEquals("refused as stale 2 times; last: HTTP 409", twice);
        assertEquals("refused as stale 1 time; last: HTTP 409", StaleRefusals.parked(1, "HTTP 409"));
        assertEquals(2, StaleRefusals.before(carried(twice)));
        assertEquals(0, StaleRefusals.before(carried("HTTP 503")), "the row was broken");
        assertEquals(0, StaleRefusals.before(carried("attempt 2 was abandoned by its holder")), "broken by a death");
        assertEquals(0, StaleRefusals.before(Optional.empty()), "a first attempt");
    }

    @Test
    void anItemRefusedOnEveryAttemptFailsAsRefusedNTimesOtherwiseWithTheUsualWords() {
        assertEquals("refused as stale 5 times", StaleRefusals.gaveUp(5, 5, "HTTP 409"));
        assertEquals("gave up after 5 attempts; last: refused as stale 2 times; last: HTTP 409",
                StaleRefusals.gaveUp(2, 5, "HTTP 409"));
    }
}
