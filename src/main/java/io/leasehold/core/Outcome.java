package io.leasehold.core;

/** What one attempt at an item came to. */
public sealed interface Outcome {

    record Done() implements Outcome {
    }

    /** A transient failure: try again after a backoff, while attempts remain. */
    record Retry(String reason) implements Outcome {
    }

    /** A permanent failure: settle in failed/ with the reason. */
    record Failed(String reason) implements Outcome {
    }

    /**
     * The receiver refused the attempt's epoch as stale (HTTP 409): counted as an attempt and retried
     * with backoff like {@link Retry}; an item refused on every attempt up to max-attempts fails as
     * "refused as stale N times". (This instance's own gate refusing an act is not an outcome: the
     * item is handed back for the holder, no attempt counted.)
     */
    record Stale(String reason) implements Outcome {
    }

    /** The claim was found taken over while working: settle nothing. */
    record Lost() implements Outcome {
    }

    static Outcome done() {
        return new Done();
    }

    static Outcome retry(String reason) {
        return new Retry(reason);
    }

    static Outcome failed(String reason) {
        return new Failed(reason);
    }

    static Outcome stale(String reason) {
        return new Stale(reason);
    }

    static Outcome lost() {
        return new Lost();
    }

    /** A short name for metrics and logs. */
    default String label() {
        if (this instanceof Done) {
            return "done";
        } else if (this instanceof Retry) {
            return "retry";
        } else if (this instanceof Failed) {
            return "failed";
        } else if (this instanceof Stale) {
            return "stale";
        }
        return "lost";
    }
}
