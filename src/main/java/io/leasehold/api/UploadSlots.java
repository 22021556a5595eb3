package io.leasehold.api;

import io.leasehold.config.LeaseholdConfig;
import jakarta.inject.Singleton;
import java.util.concurrent.Semaphore;

/**
 * How many uploads may stream at once ({@code leasehold.item.max-uploads}). Each holds a worker thread
 * until its body is in; beyond the limit an upload is answered 503 at once, so uploads can never take
 * every worker from the drain.
 */
@Singleton
class UploadSlots {

    /** No slot free: the client should come back later. */
    static final class OverloadedException extends RuntimeException {
        OverloadedException(int limit) {
            super(limit + " uploads are streaming already (leasehold.item.max-uploads); try again shortly");
        }
    }

    private final Semaphore slots;
    private final int limit;

    UploadSlots(LeaseholdConfig config) {
        this.limit = config.item().maxUploads();
        this.slots = new Semaphore(limit);
    }

    /** Takes a slot or throws {@link OverloadedException}; give it back with {@link #release()}. */
    void acquire() {
        if (!slots.tryAcquire()) {
            throw new OverloadedException(limit);
        }
    }

    void release() {
        slots.release();
    }
}
