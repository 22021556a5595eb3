package io.leasehold.jetstream;

import io.leasehold.core.ItemId;

/**
 * Item ids as KV keys and back. Ids may hold {@code .} anywhere ({@code a..b}, {@code x.}), which a KV
 * key may not (a key is dot-separated tokens, none empty); {@code =} is allowed in keys and never in an
 * id, so each {@code .} is written {@code =2E} and the mapping is one to one.
 */
final class LedgerKeys {

    private static final String DOT = "=2E";

    private LedgerKeys() {
    }

    static String key(String id) {
        return ItemId.require(id).replace(".", DOT);
    }

    /** The id of a ledger key; empty for a key no id maps to (written by someone else). */
    static java.util.Optional<String> id(String key) {
        String id = key.replace(DOT, ".");
        return ItemId.isValid(id) && key(id).equals(key) ? java.util.Optional.of(id) : java.util.Optional.empty();
    }
}
