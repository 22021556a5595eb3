package io.leasehold.spool;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.leasehold.core.ClaimName;
import io.leasehold.core.LeaseTerms;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the API shows of one item; fields that do not apply to its state, or are not known, are null and
 * left out.
 *
 * @param holder the tag of the instance holding the claim (from its nonce); only while it is held
 * @param runAt when a parked claim ({@code "retrying"} or {@code "scheduled"}) may be taken
 * @param enqueuedAt when its enqueue began (on the JetStream spool, the enqueuer's clock; on the directory,
 *     its reservation's write time)
 * @param settledAt when it settled in done or failed
 * @param history its latest attempts, oldest first; only in the answer for one item
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ItemView(String id, String state, Integer attempt, String generation, String holder,
        Instant leaseExpiresAt, Instant runAt, String reason, Instant enqueuedAt, Instant settledAt,
        List<PastAttempt> history, @JsonIgnore Instant since) {

    /** A claim parked for a retry: held by nobody, taken again from {@code runAt}; not among the held claims. */
    public static final String RETRYING = "retrying";
    /** A claim parked by its enqueue until its scheduled time: its first attempt starts from {@code runAt}. */
    public static final String SCHEDULED = "scheduled";

    public ItemView(String id, String state, Integer attempt, String generation, Instant leaseExpiresAt,
            Instant runAt, String reason, Instant since) {
        this(id, state, attempt, generation, null, leaseExpiresAt, runAt, reason, null, null, null, since);
    }

    public ItemView(String id, String state, Integer attempt, String generation, Instant leaseExpiresAt,
            String reason, Instant since) {
        this(id, state, attempt, generation, leaseExpiresAt, null, reason, since);
    }

    /**
     * A claim as the API shows it: "retrying" with {@code runAt} and the reason of the attempt that failed
     * when its own record says it was parked for a retry, "scheduled" with {@code runAt} when its enqueue
     * parked it, else "claimed" with its holder and its lease's expiry.
     */
    public static ItemView ofClaim(ClaimName claim, Optional<AttemptRecord> own, LeaseTerms terms) {
        int attempt = claim.generation().attempt();
        String generation = claim.generation().toString();
        AttemptRecord.Kind kind = own.map(AttemptRecord::kind).orElse(AttemptRecord.Kind.NOTE);
        if (kind == AttemptRecord.Kind.RETRY) {
            return new ItemView(claim.id(), RETRYING, attempt, generation, null, terms.takeableAt(claim),
                    own.get().text(), claim.reading());
        }
        if (kind == AttemptRecord.Kind.SCHEDULED) {
            return new ItemView(claim.id(), SCHEDULED, null, generation, null, terms.takeableAt(claim), null,
                    terms.takeableAt(claim));
        }
        return new ItemView(claim.id(), ItemState.CLAIMED.label(), attempt, generation,
                claim.generation().holder().orElse(null), terms.expiresAt(claim), null, null, null, null, null,
                claim.reading());
    }

    /** The same view with when it was enqueued and settled (null: not known, or not yet). */
    public ItemView withTimes(Instant enqueued, Instant settled) {
        return new ItemView(id, state, attempt, generation, holder, leaseExpiresAt, runAt, reason, enqueued, settled,
                history, since);
    }

    /** The same view, ordered in its listing by {@code at}. */
    public ItemView withSince(Instant at) {
        return new ItemView(id, state, attempt, generation, holder, leaseExpiresAt, runAt, reason, enqueuedAt, settledAt,
                history, at);
    }

    /** The same view with its history of attempts. */
    public ItemView withHistory(List<PastAttempt> attempts) {
        return new ItemView(id, state, attempt, generation, holder, leaseExpiresAt, runAt, reason, enqueuedAt,
                settledAt, List.copyOf(attempts), since);
    }

    /** A parked claim: nobody holds it, and it is taken from {@code runAt}. */
    public boolean parked() {
        return RETRYING.equals(state) || SCHEDULED.equals(state);
    }
}
