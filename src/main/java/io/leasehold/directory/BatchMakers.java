package io.leasehold.directory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The batch folders of this process: those it is making, which its housekeeping leaves alone, and those
 * whose roll-back failed (descriptors run out, say), which its next housekeeping rolls back at once as a
 * dead maker's instead of waiting out tmp-max-age with their ids known.
 */
final class BatchMakers {

    private final Set<String> making = ConcurrentHashMap.newKeySet();
    private final Set<String> givenUp = ConcurrentHashMap.newKeySet();

    void started(String name) {
        making.add(name);
    }

    void ended(String name) {
        making.remove(name);
    }

    /** Its roll-back failed: the maker gives it up to housekeeping. */
    void gaveUp(String name) {
        givenUp.add(name);
        making.remove(name);
    }

    boolean making(String name) {
        return making.contains(name);
    }

    boolean givenUp(String name) {
        return givenUp.contains(name);
    }

    void finished(String name) {
        givenUp.remove(name);
    }
}
