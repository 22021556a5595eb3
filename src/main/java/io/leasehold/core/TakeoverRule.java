package io.leasehold.core;

/** What lets an instance take over a claim it does not hold ({@code leasehold.claim.takeover}). */
public enum TakeoverRule {
    /**
     * The reading in the name has expired by the taker's clock ({@code lease + max-skew}) and the taker
     * has seen the name unchanged, on its own monotonic clock, for longer than the holder's renewals
     * allow: a live holder renames its claims every {@code lease/N}, whatever its clock says.
     */
    OBSERVED,
    /**
     * The reading alone, trusting that clocks agree within {@code max-skew}: for drain passes of an
     * instance that has just started cold and has watched nothing yet.
     */
    READING
}
