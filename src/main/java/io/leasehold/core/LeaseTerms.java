package io.leasehold.core;

import java.time.Duration;
import java.time.Instant;

/**
 * The arithmetic of one claim's lease, validated once here so nothing downstream re-checks it.
 *
 * <p>A holder renews every {@code lease / renewalsPerLease}, so a renewal late by up to
 * {@code renewalsPerLease - 1} intervals still beats the lease. Another instance takes a claim over
 * only once {@code lease + maxSkew} has passed since the reading in its name, by its own clock: a
 * holder whose clock is behind by up to {@code maxSkew} writes readings that look older than they
 * are, and the extra {@code maxSkew} keeps that from costing it a live claim. Under the default
 * {@link TakeoverRule#OBSERVED} the taker must also have seen the name unchanged for
 * {@link #unrenewedLongEnough()}, which protects a holder with any clock.
 */
public record LeaseTerms(Duration lease, int renewalsPerLease, Duration maxSkew) {

    /** The one place these rules live; the start-up check reports them by their keys. */
    public LeaseTerms {
        if (lease.isNegative() || lease.isZero()) {
            throw new InvalidSetting("leasehold.claim.lease", "must be positive, got " + DurationText.of(lease));
        }
        if (renewalsPerLease < 2) {
            throw new InvalidSetting("leasehold.claim.renewals-per-lease", "must be at least 2, got " + renewalsPerLease);
        }
        if (maxSkew.isNegative()) {
            throw new InvalidSetting("leasehold.claim.max-skew", "must not be negative, got " + DurationText.of(maxSkew));
        }
    }

    public Duration renewEvery() {
        return lease.dividedBy(renewalsPerLease);
    }

    /** When the holder's lease ends by the holder's own reading. */
    public Instant expiresAt(ClaimName claim) {
        return claim.reading().plus(lease);
    }

    /** From when another instance may take the claim over. */
    public Instant takeableAt(ClaimName claim) {
        return claim.reading().plus(lease).plus(maxSkew);
    }

    public boolean isTakeable(ClaimName claim, Instant now) {
        return !now.isBefore(takeableAt(claim));
    }

    /**
     * How long a taker must see a claim's name unchanged under {@link TakeoverRule#OBSERVED}: a live
     * holder renames it every {@link #renewEvery()}; twice that leaves room for one late tick.
     */
    public Duration unrenewedLongEnough() {
        return renewEvery().multipliedBy(2);
    }

    /**
     * The reading to write so the claim becomes takeable at {@code retryAt}: how a holder parks an
     * item for a retry with backoff. The next taker counts the attempt, as for any takeover.
     */
    public Instant readingTakeableAt(Instant retryAt) {
        return retryAt.minus(lease).minus(maxSkew);
    }
}
