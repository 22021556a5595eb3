package io.leasehold.drain;

import io.leasehold.core.HeldClaim;
import org.jboss.logging.MDC;

/**
 * The item, attempt and epoch of the claim being worked on, in the log context (MDC) of the thread that
 * works on it, so every line logged meanwhile (the drain's, the handler's) names them; a JSON log has them
 * under {@code mdc}. The MDC is the thread's: set where code for the claim starts on a thread and cleared
 * when it returns ({@code try}-with-resources), so a pooled thread never carries one item's context into
 * the next. Cleared, not restored: a thread the JDK made while an item's context was set inherits it (the
 * log manager's MDC is inheritable), and restoring would hand that stale context back after every item.
 */
public final class ItemLogContext implements AutoCloseable {

    public static final String ITEM = "itemId";
    public static final String ATTEMPT = "attempt";
    public static final String EPOCH = "epoch";

    private static final ItemLogContext ALREADY_SET = new ItemLogContext(false, null);

    /** Whether closing clears the item's keys (else it only gives the epoch back). */
    private final boolean clears;
    private final Object epochBefore;
    /** For {@link #none}: the three keys' values to give back on close, else null. */
    private final Object[] restores;

    private ItemLogContext(boolean clears, Object epochBefore) {
        this(clears, epochBefore, null);
    }

    private ItemLogContext(boolean clears, Object epochBefore, Object[] restores) {
        this.clears = clears;
        this.epochBefore = epochBefore;
        this.restores = restores;
    }

    /**
     * No item's context until closed, then the one there before back: for work one item's code does for
     * another (a slot claiming its next item from within the last one's settlement), whose lines must not
     * name the item that happens to be on the thread, and after which that item's lines go on.
     */
    static ItemLogContext none() {
        Object[] before = {MDC.get(ITEM), MDC.get(ATTEMPT), MDC.get(EPOCH)};
        clear();
        return new ItemLogContext(false, null, before);
    }

    private static void clear() {
        MDC.remove(ITEM);
        MDC.remove(ATTEMPT);
        MDC.remove(EPOCH);
    }

    private static void putOrRemove(String key, Object value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }

    /** The claim's item and attempt, and its epoch once the look before work has found it. */
    static ItemLogContext of(HeldClaim claim) {
        return of(claim.id(), claim.attempt(), claim.epoch());
    }

    /** An item's attempt, with no epoch when {@code epoch} is null (not read yet). */
    static ItemLogContext of(String id, int attempt, Long epoch) {
        MDC.put(ITEM, id);
        MDC.put(ATTEMPT, String.valueOf(attempt));
        if (epoch != null) {
            MDC.put(EPOCH, String.valueOf(epoch));
        } else {
            MDC.remove(EPOCH);
        }
        return new ItemLogContext(true, null);
    }

    /**
     * As {@link #of}, unless this thread is in the claim's context already (an outcome decided while the
     * work started): then closing leaves it as it is, for the rest of the work.
     */
    static ItemLogContext unlessIn(HeldClaim claim) {
        boolean inIt = claim.id().equals(MDC.get(ITEM)) && String.valueOf(claim.attempt()).equals(MDC.get(ATTEMPT));
        return inIt ? ALREADY_SET : of(claim);
    }

    /** The epoch alone, for the lease's own events; the epoch there before comes back on close. */
    public static ItemLogContext ofEpoch(long epoch) {
        ItemLogContext context = new ItemLogContext(false, MDC.get(EPOCH));
        epoch(epoch);
        return context;
    }

    /** The epoch the attempt works under, known once the look before work has read it. */
    static void epoch(long epoch) {
        MDC.put(EPOCH, String.valueOf(epoch));
    }

    /**
     * {@code task} on a thread the service made for a pool: it starts with no item's keys, which it
     * would otherwise inherit from the item whose code happened to make it, and keep for other work.
     */
    public static Runnable poolThread(Runnable task) {
        return () -> {
            clear();
            task.run();
        };
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
        if (this == ALREADY_SET) {
            return;
        }
        if (restores != null) {
            putOrRemove(ITEM, restores[0]);
            putOrRemove(ATTEMPT, restores[1]);
            putOrRemove(EPOCH, restores[2]);
        } else if (clears) {
            clear();
        } else if (epochBefore == null) {
            MDC.remove(EPOCH);
        } else {
            MDC.put(EPOCH, epochBefore);
        }
    }
}
