package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.support.Validator;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LedgerKeysTest {

    @Test
    void everyIdTheGrammarAllowsIsAValidKeyAndComesBack() {
        for (String id : new String[] {"a", "a.b", "a..b", "x.", "x...", "9-_.z", "A".repeat(128), "a.".repeat(64)}) {
            String key = LedgerKeys.key(id);
            assertFalse(Validator.notNonWildcardKvKey(key), id + " → " + key + " is a key the client accepts");
            assertEquals(Optional.of(id), LedgerKeys.id(key), key);
        }
    }

    @Test
    void distinctIdsNeverShareAKey() {
        String[] ids = {"a.b", "a2Eb", "a-2Eb", "a.2Eb", "a..b", "a_2E_b", "ab", "a.b."};
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (String id : ids) {
            assertTrue(keys.add(LedgerKeys.key(id)), id + " shares its key " + LedgerKeys.key(id));
        }
        // The escape cannot be forged: '=' is not in the id grammar, so no id is written as another's key.
        assertThrows(IllegalArgumentException.class, () -> LedgerKeys.key("a=2Eb"));
    }

    @Test
    void keysNoIdMapsToAreNotItems() {
        assertEquals(Optional.empty(), LedgerKeys.id("a.b"), "a raw dot: written by someone else");
        assertEquals(Optional.empty(), LedgerKeys.id("a=2e"), "lower-case escape: not ours");
        assertEquals(Optional.empty(), LedgerKeys.id("_x"));
        assertEquals(Optional.empty(), LedgerKeys.id("a/b"));
    }
}
