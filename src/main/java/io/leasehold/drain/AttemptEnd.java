package io.leasehold.drain;

import java.util.Locale;

/** Where one run of a claim left its item: each run ends in exactly one of these, told once. */
public enum AttemptEnd {
    /** Settled in done. */
    DONE,
    /** Settled in failed, for good. */
    FAILED,
    /** Parked until its retry time; whoever takes it then counts the attempt. */
    RETRIED,
    /** Back to pending at the same attempt, none counted (the work never started, through no fault of the item). */
    HANDED_BACK,
    /** The claim was taken over (or given up to the lease holder) before this instance moved it: nothing settled. */
    LOST,
    /** Its payload was not an item the spool can trust: left where it is, never moved or run. */
    JUNK,
    /** A stop cancelled the run; the claim is handed back by the stop. */
    CANCELLED;

    /** As logs and the metrics' tags write it: {@code handed-back}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
