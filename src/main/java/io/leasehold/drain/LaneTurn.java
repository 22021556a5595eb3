package io.leasehold.drain;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who goes on after one item of a slot: the slot's own loop, when the item ended before its run
 * returned, or whoever ended it later. Exactly one of them does; the two may race on different threads.
 */
final class LaneTurn {

    private static final int RUNNING = 0;
    private static final int ENDED_INLINE = 1;
    private static final int RETURNED = 2;

    private final AtomicInteger state = new AtomicInteger(RUNNING);

    /** Said by the end of the item: true when the loop has not returned yet and will go on itself. */
    boolean endedInline() {
        return state.compareAndSet(RUNNING, ENDED_INLINE);
    }

    /** Said by the loop once the run returned: true when the item is still going, and ends elsewhere. */
    boolean returned() {
        return state.compareAndSet(RUNNING, RETURNED);
    }
}
