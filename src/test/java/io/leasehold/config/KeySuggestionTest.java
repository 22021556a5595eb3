package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeySuggestionTest {

    @Test
    void theKeysAreTheMappingsOwn() {
        assertEquals(ConfigDocsTest.mappingKeys().keySet().stream().map(k -> k.replace("\"<name>\"", "*"))
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new)), KeySuggestion.keys());
    }

    @Test
    void aMisspeltKeyOfANamedScheduleIsSuggestedWithItsName() {
        assertEquals(Optional.of("leasehold.schedules.nightly.cron"), KeySuggestion.closest("leasehold.schedules.nightly.corn"));
        assertEquals(Optional.of("leasehold.schedules.\"a.b\".time-zone"),
                KeySuggestion.closest("leasehold.schedules.\"a.b\".timezone"));
    }

    @Test
    void aKeyALetterOffIsSuggestedItsNeighbour() {
        assertEquals(Optional.of("leasehold.drain.concurrency"), KeySuggestion.closest("leasehold.drain.concurency"));
        assertEquals(Optional.of("leasehold.claim.lease"), KeySuggestion.closest("leasehold.claim.leas"));
        assertEquals(Optional.of("leasehold.nats.url"), KeySuggestion.closest("leasehold.nats.ulr"));
        assertEquals(Optional.of("leasehold.spool.dir"), KeySuggestion.closest("LEASEHOLD.SPOOL.DIR"));
    }

    @Test
    void theRightWordUnderTheWrongGroupIsSuggestedWhereItLives() {
        assertEquals(Optional.of("leasehold.drain.max-attempts"), KeySuggestion.closest("leasehold.max-attempts"));
        assertEquals(Optional.of("leasehold.handler.exec.command"), KeySuggestion.closest("leasehold.exec.command"));
    }

    @Test
    void aKeyNothingLikeAnyGetsNoGuess() {
        assertEquals(Optional.empty(), KeySuggestion.closest("leasehold.colour"));
    }

    @Test
    void aWordThatLivesUnderTwoGroupsGetsNoGuess() {
        assertTrue(KeySuggestion.keys().containsAll(java.util.Set.of("leasehold.lease.bucket",
                "leasehold.spool.jetstream.bucket")));
        assertEquals(Optional.empty(), KeySuggestion.closest("leasehold.nats.bucket"));
    }
}
