package io.leasehold.wire;

/** The answer to a purge ({@code DELETE /items}, {@code items purge}): how many settled items were removed. */
public record Purged(long purged) {
}
