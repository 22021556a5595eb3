package io.leasehold.spool;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.leasehold.core.ClaimName;
import io.leasehold.core.LeaseTerms;
import java.time.Instant;
import java.util.Optional;

/**
 * What the API shows of one item; fields that do not apply to its state are null and left out.
 *
 * @param runAt when a claim parked for a retry ({@code "state":"retrying"}) may be taken again
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ItemView(String id, String state, Integer attempt, String generation, Instant leaseExpiresAt,
        Instant runAt, String reason, @JsonIgnore Instant since) {

    /** A claim parked for a retry: held by nobody, taken again from {@code runAt}. Listed with the claims. */
    public static final String RETRYING = "retrying";

    public ItemView(String id, String state, Integer attempt, String generation, Instant leaseExpiresAt,
            String reason, Instant since) {
        this(id, state, attempt, generation, leaseExpiresAt, null, reason, since);
    }

    /**
     * A claim as the API shows it: "retrying" with {@code runAt} and the reason of the attempt that failed
     * when its own record says it was parked for a retry, else "claimed" with its lease's expiry.
     */
    public static ItemView ofClaim(ClaimName claim, Optional<AttemptRecord> own, LeaseTerms terms) {
        int attempt = claim.generation().attempt();
        String generation = claim.generation().toString();
        if (own.isPresent() && own.get().kind() == AttemptRecord.Kind.RETRY) {
            return new ItemView(claim.id(), RETRYING, attempt, generation, null, terms.takeableAt(claim),
                    own.get().text(), claim.reading());
        }
        return new ItemView(claim.id(), ItemState.CLAIMED.label(), attempt, generation, terms.expiresAt(claim), null,
                null, claim.reading());
    }
}
