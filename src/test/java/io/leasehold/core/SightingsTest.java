package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SightingsTest {

    private static final Duration SPAN = Duration.ofSeconds(80);
    private static final long S = 1_000_000_000L;
    private static final ClaimName A = new ClaimName("a", Generation.first(), Instant.parse("2026-12-01T10:00:00Z"));
    private static final ClaimName A_RENEWED = A.renewedAt(Instant.parse("2026-12-01T10:00:40Z"));

    private final Sightings sightings = new Sightings();

    @Test
    void aNameCountsFromTheEndOfTheListingThatFirstShowedIt() {
        sightings.listed(List.of(A), 0, 2 * S); // a listing that took two seconds
        assertFalse(sightings.unchangedFor(A, SPAN, 81 * S), "80 s after the listing ended, not after it began");
        assertTrue(sightings.unchangedFor(A, SPAN, 83 * S));
    }

    @Test
    void aRenewedNameStartsAfreshAndAVanishedOneIsForgotten() {
        sightings.listed(List.of(A), 0, 0);
        sightings.listed(List.of(A_RENEWED), 40 * S, 40 * S);
        assertFalse(sightings.unchangedFor(A_RENEWED, SPAN, 100 * S));
        assertFalse(sightings.unchangedFor(A, SPAN, 100 * S), "no longer listed: not known at all");
        assertTrue(sightings.unchangedFor(A_RENEWED, SPAN, 121 * S));
    }

    @Test
    void aNameNeverListedIsNeverUnchanged() {
        assertFalse(sightings.unchangedFor(A, SPAN, Long.MAX_VALUE));
    }

    @Test
    void aParkedNameSurvivesAListingThatBeganBeforeThePark() {
        sightings.letGo(A_RENEWED, 10 * S);
        sightings.listed(List.of(A), 9 * S, 11 * S); // began before the park: still shows the old name
        assertTrue(sightings.unchangedFor(A_RENEWED, SPAN, 12 * S), "the parker may take it back at once");
        sightings.listed(List.of(A_RENEWED), 12 * S, 12 * S);
        assertTrue(sightings.unchangedFor(A_RENEWED, SPAN, 13 * S));
        sightings.listed(List.of(), 14 * S, 14 * S); // taken or settled since: the mark goes
        sightings.listed(List.of(A_RENEWED), 15 * S, 15 * S);
        assertFalse(sightings.unchangedFor(A_RENEWED, SPAN, 16 * S), "a name back under someone else's watch");
    }
}
