package io.leasehold.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.leasehold.spool.Anomaly;
import io.leasehold.spool.SpoolCounts;
import java.util.List;

/** {@code GET /spool} and {@code spool status --json}: the counts per state, and the entries left alone as not items. */
public record SpoolView(@JsonUnwrapped SpoolCounts counts, List<Anomaly> ignored) {
}
