package io.leasehold.handler;

/**
 * What one attempt is given.
 *
 * @param epoch the fencing token of the controller lease the attempt acts under; 0 without a lease
 */
public record WorkItem(String id, int attempt, byte[] payload, long epoch) {
}
