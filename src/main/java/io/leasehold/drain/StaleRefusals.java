package io.leasehold.drain;

import io.leasehold.spool.AttemptRecord;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The words of an item's refusals as stale (docs/handlers.md: an HTTP 409), which count attempts like any
 * retry. The count of refusals in a row travels in the reason parked with the claim, carried over by
 * the claim that takes it next, so the item that is refused on every attempt fails as "refused as
 * stale N times", as a poison item fails as "abandoned N times", with no bookkeeping of its own.
 */
final class StaleRefusals {

    private static final Pattern PARKED = Pattern.compile("refused as stale (\\d{1,9}) times?; .*", Pattern.DOTALL);

    private StaleRefusals() {
    }

    /**
     * Refusals in a row before this attempt, from what the claim carried over when it took the item from
     * the claim before it: counted only when that claim was parked after a refusal.
     */
    static int before(Optional<AttemptRecord> carried) {
        if (carried.isEmpty()) {
            return 0;
        }
        Matcher count = PARKED.matcher(carried.get().text());
        return count.matches() ? Integer.parseInt(count.group(1)) : 0;
    }

    /** The reason of a claim parked after its {@code refusals}-th refusal in a row. */
    static String parked(int refusals, String detail) {
        return "refused as stale " + times(refusals) + "; last: " + detail;
    }

    /** The reason of an item that reached max-attempts with a refusal. */
    static String gaveUp(int refusals, int attempts, String detail) {
        if (refusals >= attempts) {
            return "refused as stale " + times(refusals);
        }
        // Some attempts failed otherwise: the usual words, with the refusals in a row as the last reason.
        return "gave up after " + attempts + " attempts; last: " + parked(refusals, detail);
    }

    private static String times(int n) {
        return n + (n == 1 ? " time" : " times");
    }
}
