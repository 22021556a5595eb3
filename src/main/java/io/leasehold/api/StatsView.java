package io.leasehold.api;

import io.leasehold.stats.ActivitySeries;
import java.util.List;

/**
 * {@code GET /stats}: this instance's activity per minute since its start, at most {@code windowMinutes} of
 * them, oldest first; the last is the minute now running. A minute's {@code pending} and
 * {@code oldestPendingAgeMs} are null when no sample fell in it.
 */
public record StatsView(long windowMinutes, List<ActivitySeries.Minute> minutes) {
}
