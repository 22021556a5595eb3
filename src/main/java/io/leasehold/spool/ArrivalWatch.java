package io.leasehold.spool;

import java.util.function.Consumer;

/** Tells of names appearing in pending sooner than the next poll, where the OS can tell. */
public interface ArrivalWatch extends AutoCloseable {

    /**
     * Starts watching. {@code arrived} gets each new name; {@code missed} is called when events were
     * lost (the OS queue overflowed), so the pending items must be looked up again. Returns false when watching is
     * not possible here and the poll alone must do.
     */
    boolean start(Consumer<String> arrived, Runnable missed);

    @Override
    void close();

    ArrivalWatch NONE = new ArrivalWatch() {
        @Override
        public boolean start(Consumer<String> arrived, Runnable missed) {
            return false;
        }

        @Override
        public void close() {
        }
    };
}
