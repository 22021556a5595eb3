package io.leasehold.lease;

import java.io.IOException;

/**
 * The highest epoch ever issued, kept apart from the lease store (in the spool), so epochs never go
 * backwards when the store's data is wiped or replaced.
 */
public interface EpochFloor {

    /** The highest epoch recorded; 0 when none was. */
    long highest() throws IOException;

    /** Records {@code epoch} if it is higher than the highest recorded; never lowers it. */
    void raise(long epoch) throws IOException;
}
