package io.leasehold.spool;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.leasehold.core.HandlerOutput;
import java.time.Instant;
import java.util.List;

/**
 * The output of one attempt of an item as it is kept and shown ({@code GET /items/{id}/attempts/{n}/output}).
 *
 * @param attempt the attempt's number, as the item's history counts it
 * @param handler the handler that ran it ({@code exec}, {@code http}, a bean's name)
 * @param startedAt when the attempt began, on its holder's clock (null when unknown)
 * @param endedAt when its output was kept
 * @param status the exit status or HTTP status; null when the attempt was cut short
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AttemptOutput(int attempt, String handler, Instant startedAt, Instant endedAt, Integer status,
        List<HandlerOutput.Part> parts) {

    public AttemptOutput {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt counts from 1, got " + attempt);
        }
        handler = handler == null ? "" : handler;
        parts = new HandlerOutput(status, parts).parts(); // bounded as a handler's report is
    }

    public static AttemptOutput of(int attempt, String handler, Instant startedAt, Instant endedAt,
            HandlerOutput output) {
        return new AttemptOutput(attempt, handler, startedAt, endedAt, output.status(), output.parts());
    }
}
