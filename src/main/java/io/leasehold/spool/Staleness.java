package io.leasehold.spool;

import java.time.Duration;
import java.time.Instant;

/**
 * When a leftover of another writer may be removed: last written before {@code cutoff} (tmp-max-age
 * before now, by this instance's wall clock) and, since a wall clock can be stepped, also seen unchanged
 * by this instance for {@code quiet} on its own monotonic clock. A live upload's whole body must come
 * within upload-timeout (its last read may block a little past it), so with {@code quiet} twice that (the
 * service's choice) no live upload is ever removed, whatever either clock says (docs/protocol.md, Housekeeping).
 */
public record Staleness(Instant cutoff, Duration quiet) {
}
