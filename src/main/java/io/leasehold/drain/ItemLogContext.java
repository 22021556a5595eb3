package io.leasehold.drain;

import io.leasehold.core.HeldClaim;
import org.jboss.logging.MDC;

/**
 * The item, attempt and epoch of the claim being worked on, in the log context (MDC) of the thread that
 * works on it, so every line logged meanwhile (the drain's, the handler's) names them; a JSON log has them
 * under {@code mdc}. The MDC is the thread's: set where code for the claim starts on a thread and cleared
 * when it returns ({@code try}-with-resources), so a pooled thread never carries one item's context into
 * the next. What was there before (a nested run) comes back on close.
 */
public final class ItemLogContext implements AutoCloseable {

    public static final String ITEM = "itemId";
    public static final String ATTEMPT = "attempt";
    public static final String EPOCH = "epoch";

    private final Object item;
    private final Object attempt;
    private final Object epoch;

    private ItemLogContext() {
        this.item = MDC.get(ITEM);
        this.attempt = MDC.get(ATTEMPT);
        this.epoch = MDC.get(EPOCH);
    }

    /** The claim's item and attempt, and its epoch once the look before work has found it. */
    static ItemLogContext of(HeldClaim claim) {
        ItemLogContext context = new ItemLogContext();
        MDC.put(ITEM, claim.id());
        MDC.put(ATTEMPT, String.valueOf(claim.attempt()));
        Long epoch = claim.epoch();
        if (epoch != null) {
            MDC.put(EPOCH, String.valueOf(epoch));
        } else {
            MDC.remove(EPOCH);
        }
        return context;
    }

    /** The epoch alone, for the lease's own events; what was there before comes back on close. */
    public static ItemLogContext ofEpoch(long epoch) {
        ItemLogContext context = new ItemLogContext();
        epoch(epoch);
        return context;
    }

    /** The epoch the attempt works under, known once the look before work has read it. */
    static void epoch(long epoch) {
        MDC.put(EPOCH, String.valueOf(epoch));
    }

    /** Runs {@code task} in the claim's context, on whatever thread runs it. */
    static Runnable around(HeldClaim claim, Runnable task) {
        return () -> {
            try (ItemLogContext c = of(claim)) {
                task.run();
            }
        };
    }

    @Override
    public void close() {
        restore(ITEM, item);
        restore(ATTEMPT, attempt);
        restore(EPOCH, epoch);
    }

    private static void restore(String key, Object value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
