package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LeaseTermsTest {

    private static final Instant T0 = Instant.parse("2026-11-30T15:00:00Z");
    private final LeaseTerms terms = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));
    private final ClaimName claim = new ClaimName("a", new Generation(1, "n"), T0);

    @Test
    void renewsEveryThirdOfTheLease() {
        assertEquals(Duration.ofSeconds(40), terms.renewEvery());
    }

    @Test
    void takeableOnlyOnceLeaseAndSkewHavePassed() {
        assertEquals(T0.plusSeconds(120), terms.expiresAt(claim));
        assertFalse(terms.isTakeable(claim, T0.plusSeconds(129).plusMillis(999)));
        assertTrue(terms.isTakeable(claim, T0.plusSeconds(130)));
    }

    @Test
    void aHolderRenewingOnTimeWithMaxSkewBehindIsNeverTakeable() {
        // The holder's clock is 10s behind: its readings look 10s old the moment they are written.
        Duration behind = Duration.ofSeconds(10);
        for (int renewal = 0; renewal < 100; renewal++) {
            Instant trueTime = T0.plus(terms.renewEvery().multipliedBy(renewal));
            ClaimName written = claim.renewedAt(trueTime.minus(behind));
            Instant lastMomentBeforeNextRenewal = trueTime.plus(terms.renewEvery()).minusMillis(1);
            assertFalse(terms.isTakeable(written, lastMomentBeforeNextRenewal));
        }
    }

    @Test
    void aParkedClaimBecomesTakeableAtItsRetryTime() {
        Instant retryAt = T0.plusSeconds(7);
        ClaimName parked = claim.renewedAt(terms.readingTakeableAt(retryAt));
        assertFalse(terms.isTakeable(parked, retryAt.minusMillis(1)));
        assertTrue(terms.isTakeable(parked, retryAt));
    }

    @Test
    void refusesTermsThatCannotWork() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(Duration.ZERO, 3, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(Duration.ofSeconds(1), 1, Duration.ZERO));
        assertThrows(IllegalArgumentException.class,
                () -> new LeaseTerms(Duration.ofSeconds(1), 3, Duration.ofSeconds(-1)));
    }

    @Test
    void backoffDoublesWithinJitterAndStopsAtTheCap() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
        assertEquals(Duration.ofMillis(500), backoff.after(1, () -> 0.0));
        assertEquals(Duration.ofMillis(999), backoff.after(1, () -> 0.999));
        assertEquals(Duration.ofMillis(2000), backoff.after(3, () -> 0.0));
        assertEquals(Duration.ofMillis(3999), backoff.after(3, () -> 0.99975));
        assertEquals(Duration.ofMillis(15000), backoff.after(10, () -> 0.0));
        assertEquals(Duration.ofMillis(15000), backoff.after(1000, () -> 0.0));
    }
}
