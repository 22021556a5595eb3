package io.leasehold.spool;

import java.time.Duration;
import java.time.Instant;

/**
 * When a leftover of another writer may be removed: last written before {@code cutoff} (tmp-max-age
 * before now, by this instance's wall clock) and, since a wall clock can be stepped, also seen unchanged
 * by this instance for {@code quiet} on its own monotonic clock. A live upload changes its file at least
 * once per upload-timeout (its whole body must come within it), so with {@code quiet} at least that long
 * no live upload is ever removed, whatever either clock says (docs/protocol.md, "Leftovers").
 */
public record Staleness(Instant cutoff, Duration quiet) {
}
