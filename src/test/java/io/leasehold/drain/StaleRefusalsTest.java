package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HeldClaim;
import io.leasehold.spool.Spool;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How refusals as stale are counted from the reason parked by the attempt before. */
class StaleRefusalsTest {

    static HeldClaim attempt(int n) {
        return new HeldClaim(new ClaimName("x", new Generation(n, "abc"), Instant.EPOCH));
    }

    static Optional<Spool.Reason> parkedBy(int attempt, String text) {
        return Optional.of(new Spool.Reason(attempt + "-prev", 0, text));
    }

    @Test
    void refusalsInARowAreReadFromTheReasonOfTheAttemptBefore() {
        String twice = StaleRefusals.parked(2, "HTTP 409");
        assertEquals("refused as stale 2 times; last: HTTP 409", twice);
        assertEquals("refused as stale 1 time; last: HTTP 409", StaleRefusals.parked(1, "HTTP 409"));
        assertEquals(2, StaleRefusals.before(attempt(3), parkedBy(2, twice)));
        assertEquals(0, StaleRefusals.before(attempt(4), parkedBy(2, twice)), "not the attempt right before");
        assertEquals(0, StaleRefusals.before(attempt(3), parkedBy(2, "HTTP 503")), "the row was broken");
        assertEquals(0, StaleRefusals.before(attempt(1), Optional.empty()));
        assertEquals(0, StaleRefusals.before(attempt(3), Optional.of(new Spool.Reason("-", 0, twice))));
    }

    @Test
    void anItemRefusedOnEveryAttemptFailsAsRefusedNTimesOtherwiseWithTheUsualWords() {
        assertEquals("refused as stale 5 times", StaleRefusals.gaveUp(5, 5, "HTTP 409"));
        assertEquals("gave up after 5 attempts; last: refused as stale 2 times; last: HTTP 409",
                StaleRefusals.gaveUp(2, 5, "HTTP 409"));
    }
}
