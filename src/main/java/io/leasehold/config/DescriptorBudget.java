package io.leasehold.config;

/**
 * What a process allowed {@code limit} open files can give HTTP connections and uploads once it has kept
 * its reserve, so that clients cannot make it open so much that its own work (starting a command,
 * reading a payload, writing an outcome) finds no descriptor free (docs/configuration.md, "Descriptor limit").
 */
public record DescriptorBudget(long limit, int concurrency) {

    /**
     * The service's own, whatever its clients do: about 20 open at rest (the JVM and its one jar, event
     * loops, the directory watch, the exec watchdog's pipe, stdio), plus room for NATS reconnecting,
     * logging, the spool's housekeeping and connections accepted in a burst before the cap refuses them.
     */
    static final int BASE_RESERVE = 64;
    /** One attempt of the drain: an exec child's pipes and temporary files while it starts, or an http socket. */
    static final int PER_ATTEMPT = 8;
    /** One connection: its socket, the file its request streams to or from, and one at a time beside (a directory synced). */
    static final int PER_CONNECTION = 3;
    /** The most uploads that stream at once when descriptors are plenty ({@code leasehold.item.max-uploads}). */
    public static final int MOST_UPLOADS = 64;
    /** The longest queue of connections the kernel holds for the service when descriptors are plenty. */
    static final int MOST_BACKLOG = 1024;

    /** Descriptors never given to connections. */
    public long reserve() {
        return BASE_RESERVE + (long) PER_ATTEMPT * Math.max(0, concurrency);
    }

    /** The cap on open HTTP connections ({@code quarkus.http.limits.max-connections}); 0 when none fits. */
    public int connections() {
        long fit = (limit - reserve()) / PER_CONNECTION;
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, fit));
    }

    /** The cap on uploads streaming at once: each is one of the connections, whose share covers its file. */
    public int uploads() {
        return Math.min(MOST_UPLOADS, connections());
    }

    /**
     * The kernel's queue of connections not yet accepted ({@code quarkus.http.accept-backlog}): a quarter
     * of the connections. The cap refuses a connection only once it is accepted, so a queued burst takes a
     * descriptor each until refused; a short queue makes the rest of a burst wait in the kernel instead.
     */
    public int backlog() {
        return Math.max(1, Math.min(MOST_BACKLOG, connections() / 4));
    }

    /** How the reserve is made up, for messages. */
    String reserveText() {
        return BASE_RESERVE + " + " + PER_ATTEMPT + " × leasehold.drain.concurrency = " + reserve();
    }
}
