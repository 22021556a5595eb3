package io.leasehold.handler;

import java.time.Instant;

/**
 * What one attempt is given.
 *
 * @param epoch the fencing token of the controller lease the attempt acts under; 0 without a lease
 * @param startedAt when this attempt began, on this instance's clock
 */
public record WorkItem(String id, int attempt, byte[] payload, long epoch, Instant startedAt) {
}
