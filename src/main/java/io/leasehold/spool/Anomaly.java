package io.leasehold.spool;

import java.time.Instant;

/** A spool entry that is not an item and is left alone: a bad name, a symlink, a directory. */
public record Anomaly(String folder, String name, String problem, Instant firstSeen) {
}
