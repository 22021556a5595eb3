package io.leasehold.directory;

import io.leasehold.core.Generation;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Claims this instance made of an item that had no record at all when it was claimed: a new item's first
 * claim, the drain's usual case. Such a claim has no history to keep, so its settlement does not look for
 * one; it leaves this set as soon as a record is written for it. Bounded: a claim forgotten (taken over, or
 * the set cleared when full) only makes its settlement look, as every claim did before.
 */
final class RecordlessClaims {

    static final int CAPACITY = 65_536;

    private final Set<String> claims = ConcurrentHashMap.newKeySet();

    void add(String id, Generation generation) {
        if (claims.size() >= CAPACITY) {
            claims.clear();
        }
        claims.add(key(id, generation));
    }

    /** True when the claim was made with no record and none was written for it since. */
    boolean contains(String id, Generation generation) {
        return claims.contains(key(id, generation));
    }

    /** A record is written for the claim, or it ends: it is no longer known to have none. */
    void forget(String id, Generation generation) {
        claims.remove(key(id, generation));
    }

    private static String key(String id, Generation generation) {
        return id + '~' + generation;
    }
}
