package io.leasehold.drain;

import java.time.Duration;

/** What the drain reports as it goes; metrics listen here. Every method must return at once. */
public interface DrainEvents {

    default void claimed(String id) {
    }

    default void renewed(String id) {
    }

    default void tookOver(String id, int attempt) {
    }

    default void lost(String id) {
    }

    /** One attempt ended: outcome is done, retry, failed or lost. */
    default void attempted(String id, String outcome, Duration took) {
    }

    default void settled(String id, AttemptEnd where) {
    }

    default void handedBack(String id) {
    }

    /** An outcome could not be written (e.g. a full disk); the claim stays held and it is tried again. */
    default void settleFailed(String id, String error) {
    }

    DrainEvents NONE = new DrainEvents() {
    };
}
