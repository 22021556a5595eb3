package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClaimNameTest {

    @Test
    void roundTripsThroughItsFileName() {
        ClaimName name = new ClaimName("order-42.json", new Generation(3, "k2x9"), Instant.parse("2026-11-30T15:00:00.123Z"));
        assertEquals("order-42.json~3-k2x9~20261130T150000.123Z", name.fileName());
        assertEquals(Optional.of(name), ClaimName.parse(name.fileName()));
    }

    @Test
    void keepsMillisecondsOnly() {
        ClaimName name = new ClaimName("a", new Generation(1, "n"), Instant.parse("2026-11-30T15:00:00.123456789Z"));
        assertEquals(Instant.parse("2026-11-30T15:00:00.123Z"), name.reading());
        assertEquals(Optional.of(name), ClaimName.parse(name.fileName()));
    }

    @Test
    void renewalKeepsTheGenerationAndChangesTheReading() {
        ClaimName name = new ClaimName("a", new Generation(1, "n"), DrivenStart.T0);
        ClaimName renewed = name.renewedAt(DrivenStart.T0.plusSeconds(40));
        assertTrue(renewed.sameClaimAs(name));
        assertTrue(renewed.fileName().startsWith(ClaimName.prefix("a", name.generation())));
        assertFalse(renewed.equals(name));
        assertFalse(new ClaimName("a", name.generation().next(), DrivenStart.T0).sameClaimAs(name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "a~b", "a~1-x", "a~1-x~", "a~0-x~20261130T150000.123Z", "a~1-X~20261130T150000.123Z",
        "a~1-x~20261130T150000Z", "a~1-x~20261330T150000.123Z", "a~1-x~20261130T150000.123Z~more",
        ".a~1-x~20261130T150000.123Z", "a~1x~20261130T150000.123Z", "a~-1-x~20261130T150000.123Z"})
    void refusesNamesOutsideTheGrammar(String garbage) {
        assertEquals(Optional.empty(), ClaimName.parse(garbage));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "A9", "order-42.json", "x_y.z-1", "0"})
    void acceptsValidIds(String id) {
        assertTrue(ItemId.isValid(id));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".hidden", "-dash", "a~b", "a/b", "..", "a b", "ü", "a\nb"})
    void refusesInvalidIds(String id) {
        assertFalse(ItemId.isValid(id));
        assertThrows(IllegalArgumentException.class, () -> ItemId.require(id));
    }

    @Test
    void idsAreAtMost128Characters() {
        assertTrue(ItemId.isValid("a".repeat(128)));
        assertFalse(ItemId.isValid("a".repeat(129)));
    }

    @Test
    void nextGenerationCountsTheAttemptWithAFreshNonce() {
        Generation first = Generation.first();
        Generation next = first.next();
        assertEquals(1, first.attempt());
        assertEquals(2, next.attempt());
        assertFalse(first.nonce().equals(next.nonce()));
        assertEquals(Optional.of(next), Generation.parse(next.toString()));
    }

    /** A fixed instant for name tests. */
    static final class DrivenStart {
        static final Instant T0 = Instant.parse("2026-11-30T15:00:00Z");
    }
}
