package io.leasehold.wire;

/** The answer to a bulk retry ({@code POST /items/retry}, {@code items retry --all}): how many went back to pending. */
public record Retried(long retried) {
}
