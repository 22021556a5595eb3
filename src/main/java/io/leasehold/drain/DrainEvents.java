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

    /** An attempt's output could not be kept (e.g. a full disk, NATS away); its item settled all the same. */
    default void outputNotKept(String id, int attempt, String error) {
    }

    DrainEvents NONE = new DrainEvents() {
    };

    /** Each event told to {@code first}, then to {@code second}. */
    static DrainEvents both(DrainEvents first, DrainEvents second) {
        return new DrainEvents() {
            @Override
            public void claimed(String id) {
                first.claimed(id);
                second.claimed(id);
            }

            @Override
            public void renewed(String id) {
                first.renewed(id);
                second.renewed(id);
            }

            @Override
            public void tookOver(String id, int attempt) {
                first.tookOver(id, attempt);
                second.tookOver(id, attempt);
            }

            @Override
            public void lost(String id) {
                first.lost(id);
                second.lost(id);
            }

            @Override
            public void attempted(String id, String outcome, Duration took) {
                first.attempted(id, outcome, took);
                second.attempted(id, outcome, took);
            }

            @Override
            public void settled(String id, AttemptEnd where) {
                first.settled(id, where);
                second.settled(id, where);
            }

            @Override
            public void handedBack(String id) {
                first.handedBack(id);
                second.handedBack(id);
            }

            @Override
            public void settleFailed(String id, String error) {
                first.settleFailed(id, error);
                second.settleFailed(id, error);
            }

            @Override
            public void outputNotKept(String id, int attempt, String error) {
                first.outputNotKept(id, attempt, error);
                second.outputNotKept(id, attempt, error);
            }
        };
    }
}
