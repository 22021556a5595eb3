package io.leasehold.lease;

import io.leasehold.core.DurationText;
import io.leasehold.core.InvalidSetting;
import java.time.Duration;

/**
 * The controller lease's three durations, checked once here: {@code duration > renewDeadline >
 * renewEvery > 0}, with at least {@link #SHORTEST_GRACE} twice over between the deadline and the
 * duration. The holder stops acting at {@code renewDeadline} after its last successful renewal was
 * sent (children get TERM) and KILLs what still runs at {@link #killAfter()}, while a candidate
 * waits a full {@code duration} of seeing the lease unchanged before it takes over: the old holder
 * has stopped before anyone else may start.
 */
public record LeaseTiming(Duration duration, Duration renewEvery, Duration renewDeadline) {

    /** Time between TERM and KILL, and again between KILL and the duration: enough for a signal to land. */
    public static final Duration SHORTEST_GRACE = Duration.ofMillis(500);

    /** The one place these rules live: the service's and the command's config checks report it by its key. */
    public LeaseTiming {
        // Each key's own rule before the rules between keys: a negative duration is told as that.
        positive("leasehold.lease.duration", duration);
        positive("leasehold.lease.renew-deadline", renewDeadline);
        positive("leasehold.lease.renew-every", renewEvery);
        if (renewDeadline.compareTo(renewEvery) <= 0) {
            throw new Invalid("leasehold.lease.renew-deadline", "(" + DurationText.of(renewDeadline)
                    + ") must be longer than leasehold.lease.renew-every (" + DurationText.of(renewEvery) + ")");
        }
        if (duration.minus(renewDeadline).compareTo(SHORTEST_GRACE.multipliedBy(2)) < 0) {
            throw new Invalid("leasehold.lease.duration", "(" + DurationText.of(duration) + ") must be at least "
                    + DurationText.of(SHORTEST_GRACE.multipliedBy(2)) + " longer than leasehold.lease.renew-deadline ("
                    + DurationText.of(renewDeadline) + "): what still acts at the deadline gets TERM, then KILL"
                    + " halfway to the duration");
        }
    }

    private static void positive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new Invalid(key, "must be positive, got " + DurationText.of(value));
        }
    }

    /** A timing that breaks a rule, with the key to blame. */
    public static final class Invalid extends InvalidSetting {
        Invalid(String key, String rule) {
            super(key, rule);
        }
    }

    /** When, after the last successful renewal was sent, whatever still acts is KILLed: halfway to the duration. */
    public Duration killAfter() {
        return renewDeadline.plus(duration.minus(renewDeadline).dividedBy(2));
    }

    /** Less slack than this between renew-deadline and renew-every is warned of (see {@link #borrowingWarning}). */
    public static final Duration BORROWING_SLACK = Duration.ofMillis(500);

    /**
     * A borrower sees the holder's next renewal up to two of its reads late ({@link BorrowedEpoch#readEvery}),
     * and must see it within renew-deadline − renew-every: with less slack than {@link #BORROWING_SLACK}, one
     * slow read makes a live holder's borrower stop its work. Valid, but said once at start.
     */
    public java.util.Optional<String> borrowingWarning() {
        Duration slack = renewDeadline.minus(renewEvery);
        if (slack.compareTo(BORROWING_SLACK) >= 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("leasehold.lease.renew-deadline (" + DurationText.of(renewDeadline) + ") is only " + slack.toMillis()
                + " ms longer than leasehold.lease.renew-every (" + DurationText.of(renewEvery) + "): an instance acting beside the"
                + " holder (claims mode) stops its work whenever a read of the lease is slow; keep them at least "
                + BORROWING_SLACK.toMillis() + " ms apart");
    }

    /** TERM at the deadline, KILL after this. */
    public Duration grace() {
        return killAfter().minus(renewDeadline);
    }
}
