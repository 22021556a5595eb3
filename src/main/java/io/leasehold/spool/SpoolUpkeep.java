package io.leasehold.spool;

import java.io.IOException;
import java.time.Duration;

/**
 * The spool as a whole, whatever holds it: made ready at start, tidied now and then, asked whether it can
 * be used. The service's lifecycle, its readiness check and its error answers talk to this, never to a
 * folder or a bucket.
 */
public interface SpoolUpkeep {

    /**
     * Makes the spool ready to use (its folders, say), finishes or removes what crashed writers left that is
     * {@link Staleness stale}, and starts the recounts that bring other instances' moves into the counts,
     * every {@code recountEvery}. Throws when the spool cannot be used. Returns how many leftovers it removed.
     */
    int open(Staleness staleness, Duration recountEvery) throws IOException;

    /**
     * Removes leftovers of crashed writers that are {@link Staleness stale} and forgets junk that was cleared
     * away; with {@code sweep}, also the bookkeeping nothing needs any more (slow on a large spool: it looks
     * at every item's bookkeeping). Returns how many things it removed.
     */
    int tidy(Staleness staleness, boolean sweep) throws IOException;

    /** Whether items can be written and moved now; for the readiness check, so it must be quick. */
    boolean usable();

    /** Where the items are, for logs and error answers: a directory, a bucket on a server. */
    String where();
}
