package io.leasehold.lease;

/** A lease-store call that did not succeed, classified by what the caller may conclude from it. */
public final class LeaseStoreException extends Exception {

    public enum Kind {
        /** Someone else wrote first (a revision mismatch, or the key already has a live value). */
        CONFLICT,
        /** The store refused this user (permissions): retrying will not help until the grant changes. */
        DENIED,
        /** No answer, or an answer that does not say whether the write happened: never success. */
        INDETERMINATE
    }

    private final Kind kind;

    public LeaseStoreException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
