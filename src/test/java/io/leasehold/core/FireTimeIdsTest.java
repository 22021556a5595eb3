package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FireTimeIdsTest {

    @Test
    void aFireTimesIdIsTheNameAndTheFireTimeInUtcToTheSecond() {
        Instant t = Instant.parse("2026-12-05T02:00:00Z");
        assertEquals("nightly.20261205T020000Z", FireTimeIds.of("nightly", t));
        assertTrue(ItemId.isValid(FireTimeIds.of("a".repeat(64), t)));
        assertEquals(Optional.of(t), FireTimeIds.fireTimeOf("nightly.20261205T020000Z"));
    }

    @Test
    void aTriggerByHandIsNamedToTheMillisecondAndGivesItsInstant() {
        Instant t = Instant.parse("2026-12-05T02:00:00.123Z");
        assertEquals("nightly.manual-20261205T020000.123Z", FireTimeIds.manual("nightly", t));
        assertTrue(ItemId.isValid(FireTimeIds.manual("a".repeat(64), t)));
        assertEquals(Optional.of(t), FireTimeIds.fireTimeOf("nightly.manual-20261205T020000.123Z"));
    }

    @Test
    void otherIdsHaveNoFireTime() {
        assertEquals(Optional.empty(), FireTimeIds.fireTimeOf("order-17"));
        assertEquals(Optional.empty(), FireTimeIds.fireTimeOf("a.b.20261205T020000Z")); // a name has no dot
        assertEquals(Optional.empty(), FireTimeIds.fireTimeOf("nightly.20261305T020000Z")); // no 13th month
        assertEquals(Optional.empty(), FireTimeIds.fireTimeOf("nightly.20261205T020000.123Z")); // millis only by hand
        assertEquals(Optional.empty(), FireTimeIds.fireTimeOf("nightly.manual-20261205T020000Z"));
    }

    @Test
    void aNameIsLettersDigitsDashAndUnderscoreUpTo64() {
        assertTrue(FireTimeIds.isName("nightly-export_2"));
        assertFalse(FireTimeIds.isName("-nightly"));
        assertFalse(FireTimeIds.isName("night.ly"));
        assertFalse(FireTimeIds.isName("a".repeat(65)));
        assertFalse(FireTimeIds.isName(""));
    }
}
