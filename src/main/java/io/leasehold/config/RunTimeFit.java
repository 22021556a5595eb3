package io.leasehold.config;

import java.util.OptionalInt;
import org.eclipse.microprofile.config.Config;

/**
 * The rules that need facts of the running process beside the settings: the worker threads Quarkus gives
 * and the open-files limit ({@link DescriptorBudget}).
 */
final class RunTimeFit {

    /** Threads the drain and the API keep for themselves beside uploads and the drain's own work. */
    static final int SPARE_WORKERS = 8;

    private RunTimeFit() {
    }

    /** Quarkus' worker pool: {@code quarkus.thread-pool.max-threads}, by default max(8 × cores, 200). */
    static int workerThreads(Config config) {
        return config.getOptionalValue("quarkus.thread-pool.max-threads", Integer.class)
                .orElse(Math.max(8 * Runtime.getRuntime().availableProcessors(), 200));
    }

    /** {@code quarkus.http.limits.max-connections}: derived by {@link DescriptorDefaults} unless set. */
    static OptionalInt maxConnections(Config config) {
        return config.getOptionalValue(DescriptorDefaults.MAX_CONNECTIONS, Integer.class)
                .map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    /** Uploads hold worker threads while they stream: they may never take the ones the drain needs. */
    static void uploadsFit(Problems problems, LeaseholdConfig c, int workerThreads) {
        int most = workerThreads - c.drain().concurrency() - SPARE_WORKERS;
        if (c.item().maxUploads() > most) {
            problems.add("leasehold.item.max-uploads", "(" + c.item().maxUploads() + ") must leave worker threads"
                    + " for the drain: at most quarkus.thread-pool.max-threads (" + workerThreads
                    + ") - leasehold.drain.concurrency (" + c.drain().concurrency() + ") - " + SPARE_WORKERS
                    + " = " + most);
        }
    }

    /** Clients may never take the descriptors the service keeps for its own work ({@link DescriptorBudget}). */
    static void connectionsFit(Problems problems, LeaseholdConfig c, long limit, OptionalInt maxConnections) {
        DescriptorBudget budget = new DescriptorBudget(limit, c.drain().concurrency());
        if (budget.connections() < 1) {
            problems.add(DescriptorDefaults.CONCURRENCY, "(" + c.drain().concurrency() + ") leaves no descriptors for"
                    + " HTTP connections under this process's open-files limit (ulimit -n " + limit + "): the reserve"
                    + " is " + budget.reserveText() + "; raise the limit to at least "
                    + (budget.reserve() + DescriptorBudget.PER_CONNECTION) + " or lower the concurrency");
        } else if (maxConnections.isEmpty() || maxConnections.getAsInt() > budget.connections()) {
            String most = "at most (open files " + limit + " - reserve " + budget.reserveText() + ") / "
                    + DescriptorBudget.PER_CONNECTION + " per connection = " + budget.connections();
            problems.add(DescriptorDefaults.MAX_CONNECTIONS, maxConnections.isEmpty()
                    ? "is unset (no cap), so clients could take every descriptor: " + most
                    : "(" + maxConnections.getAsInt() + ") leaves the service too few descriptors: " + most
                            + " (unset, that is the default)");
        }
    }
}
