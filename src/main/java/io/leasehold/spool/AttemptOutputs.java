package io.leasehold.spool;

import java.io.IOException;
import java.util.Optional;

/**
 * The outputs of an item's latest attempts, kept apart from its records (which every move of the item
 * rewrites), a few KiB each: at most {@link #KEPT} per item, those of the attempts numbered above
 * {@code n - KEPT} where {@code n} was kept last. Blocking. Nothing here decides where an item goes: a lost
 * output costs an operator a clue, never an item.
 */
public interface AttemptOutputs {

    int KEPT = PastAttempt.MAX_KEPT;

    /** Keeps the output of attempt {@code output.attempt()}, replacing an earlier one of that number. */
    void keep(String id, AttemptOutput output) throws IOException;

    /** The output kept for attempt {@code attempt} of the item; empty when none is. */
    Optional<AttemptOutput> read(String id, int attempt) throws IOException;

    /** Removes every output of the item (it was purged: its id may name a new item). */
    void forget(String id) throws IOException;

    /** Keeps nothing: for drains and stores that show no output. */
    AttemptOutputs NONE = new AttemptOutputs() {
        @Override
        public void keep(String id, AttemptOutput output) {
        }

        @Override
        public Optional<AttemptOutput> read(String id, int attempt) {
            return Optional.empty();
        }

        @Override
        public void forget(String id) {
        }
    };
}
