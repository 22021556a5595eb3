package io.leasehold.spool;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/** What the API shows of one item; fields that do not apply to its state are null and left out. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ItemView(String id, String state, Integer attempt, String generation, Instant leaseExpiresAt,
        String reason, @JsonIgnore Instant since) {
}
