package io.leasehold.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * The answer to an enqueue ({@code POST /items}, each item of {@code POST /items/batch}, {@code items enqueue}).
 *
 * @param runAt when a scheduled item may first run; absent for a pending one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Created(String id, String state, Instant runAt) {

    public Created(String id, String state) {
        this(id, state, null);
    }
}
