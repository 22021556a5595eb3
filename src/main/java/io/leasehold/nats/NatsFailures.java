package io.leasehold.nats;

import io.leasehold.lease.LeaseStoreException;
import io.leasehold.lease.LeaseStoreException.Kind;
import io.nats.client.JetStreamApiException;

/**
 * Classifies what a failed KV call means for the lease. Only two answers are certain: the server said
 * the revision was not the latest (someone else wrote), or it refused this user. Everything else —
 * no answer in time, a lost connection, an unexpected error — may or may not have written, so it is
 * indeterminate and never taken as success.
 */
final class NatsFailures {

    /** "wrong last sequence": the expected revision is not the key's latest (also create on a live key). */
    static final int WRONG_LAST_SEQUENCE = 10071;
    /** "jetstream not enabled for account": this user's account has no JetStream at all. */
    static final int NOT_ENABLED_FOR_ACCOUNT = 10039;

    private final NatsRefusals refusals;
    private final String[] subjects;

    NatsFailures(NatsRefusals refusals, String bucket, String key) {
        this.refusals = refusals;
        // What a refusal of this store's calls names: the write subject, or the JetStream API / reply inbox.
        this.subjects = new String[] {"$KV." + bucket + ".", "$JS.", "_INBOX"};
    }

    LeaseStoreException of(String what, Exception e, long startNanos) {
        if (e instanceof LeaseStoreException lse) {
            return lse;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        JetStreamApiException api = apiError(e);
        if (api != null) {
            int code = api.getApiErrorCode();
            if (code == WRONG_LAST_SEQUENCE) {
                return new LeaseStoreException(Kind.CONFLICT, "could not " + what + ": someone else wrote first ("
                        + api.getMessage() + ")", e);
            }
            if (refuses(api)) {
                return new LeaseStoreException(Kind.DENIED, "the bus refuses to " + what + ": " + api.getMessage(), e);
            }
            if (code == NatsKvLeaseStore.STREAM_NOT_FOUND) {
                return new LeaseStoreException(Kind.INDETERMINATE, "could not " + what
                        + ": the bucket does not exist (its data was wiped?): " + api.getMessage(), e);
            }
        }
        NatsRefusals.Refusal refused = refusals.since(startNanos, subjects);
        if (refused != null) {
            return new LeaseStoreException(Kind.DENIED, "the bus refuses to " + what + ": " + refused.error(), e);
        }
        return new LeaseStoreException(Kind.INDETERMINATE, "no certain answer to " + what + ": " + e, e);
    }

    /** The server refuses this user: no JetStream for the account, or no permission. */
    static boolean refuses(JetStreamApiException api) {
        return api.getApiErrorCode() == NOT_ENABLED_FOR_ACCOUNT || api.getErrorCode() == 403;
    }

    private static JetStreamApiException apiError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JetStreamApiException api) {
                return api;
            }
        }
        return null;
    }
}
