package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The starts carried over from an earlier picture are kept only until they have been of use. */
class RunningClaimsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Generation HELD = Generation.at(1);

    private static ClaimName at(String id, int second) {
        return new ClaimName(id, HELD, T0.plusSeconds(second));
    }

    @Test
    void aCarriedStartGoesAtFirstSightAndTheRestOnceTheLookIsWhole() {
        RunningClaims older = new RunningClaims();
        older.running(at("a", 0));
        older.running(at("b", 0));
        older.running(at("c", 0));
        RunningClaims fresh = new RunningClaims();
        fresh.carryOver(older);

        fresh.running(at("a", 40));
        fresh.notRunning("b");
        assertEquals(1, fresh.carriedOver(), "a and b were seen: only c's start is still kept");
        assertEquals(100_000, fresh.ages(T0.plusSeconds(100), Duration.ofSeconds(1)).oldestMs(), "a kept its start");
        fresh.retainOnly(Set.of("a"));
        assertEquals(0, fresh.carriedOver(), "the look was whole: c is gone");
    }
}
