package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.ClaimAges;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A picture made afresh (a reconnect, a stuck watch) sees each claim only at its latest renewal: the
 * claims the picture before it saw keep their start, and a claim it never saw, or saw under an earlier
 * generation, counts from what the new picture sees.
 */
class MirrorClaimAgesTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(120);

    private static LedgerEntry claimedAt(Generation generation, int second) {
        return LedgerEntry.enqueued(T0, "p").claimed(new ClaimName("x", generation, T0.plusSeconds(second)), "a");
    }

    @Test
    void aFreshPictureKeepsTheStartsTheOlderOneSawAndOnlyThose() {
        Generation held = Generation.at(1);
        MirrorCopy older = new MirrorCopy();
        older.delivered("x", 1, claimedAt(held, 0));
        older.delivered("x", 2, claimedAt(held, 40));

        MirrorCopy fresh = new MirrorCopy(older);
        fresh.delivered("x", 2, claimedAt(held, 40)); // a new watch's initial value: the latest renewal alone
        assertEquals(new ClaimAges(100_000, 0), fresh.claimAges(T0.plusSeconds(100), LEASE), "held since 0 s");

        MirrorCopy afterTakeover = new MirrorCopy(older);
        afterTakeover.delivered("x", 3, claimedAt(held.next(), 90));
        assertEquals(new ClaimAges(10_000, 0), afterTakeover.claimAges(T0.plusSeconds(100), LEASE),
                "taken over at 90 s: the older picture's start is of another claim");

        MirrorCopy alone = new MirrorCopy();
        alone.delivered("x", 2, claimedAt(held, 40));
        assertEquals(new ClaimAges(60_000, 0), alone.claimAges(T0.plusSeconds(100), LEASE),
                "with nothing carried over, from the reading it saw");
    }
}
