package io.leasehold.config;

import io.leasehold.lease.LeaseTiming;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Checks the configuration once, before anything starts, and names the key of every problem, so a
 * bad setting stops the start with a message the operator can act on (exit status 1).
 */
public final class ConfigCheck {

    /** The Quarkus scheduler looks for due ticks once a second; shorter periods would silently stretch. */
    static final Duration TICK_RESOLUTION = Duration.ofSeconds(1);
    static final Set<String> BUILT_IN_HANDLERS = Set.of("log", "exec", "http");
    /** JetStream keeps at most five copies of a stream. */
    static final int MAX_REPLICAS = 5;

    private final List<String> problems = new ArrayList<>();

    /** Threads the drain and the API keep for themselves beside uploads and the drain's own work. */
    static final int SPARE_WORKERS = 8;

    public static void require(LeaseholdConfig config) {
        require(config, workerThreads());
    }

    /** As {@link #require(LeaseholdConfig)}, for a worker pool of {@code workerThreads} threads. */
    public static void require(LeaseholdConfig config, int workerThreads) {
        require(config, workerThreads, OpenFilesLimit.current(), maxConnections());
    }

    /**
     * As {@link #require(LeaseholdConfig, int)}, for a process allowed {@code openFiles} descriptors (empty:
     * not known) whose HTTP server takes at most {@code maxConnections} connections (empty: no cap).
     */
    public static void require(LeaseholdConfig config, int workerThreads, OptionalLong openFiles,
            OptionalInt maxConnections) {
        ConfigCheck check = new ConfigCheck();
        check.all(config);
        check.uploadsFit(config, workerThreads);
        openFiles.ifPresent(limit -> check.connectionsFit(config, limit, maxConnections));
        check.stopIfAny();
    }

    /** Quarkus' worker pool: {@code quarkus.thread-pool.max-threads}, by default max(8 × cores, 200). */
    static int workerThreads() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.thread-pool.max-threads", Integer.class)
                .orElse(Math.max(8 * Runtime.getRuntime().availableProcessors(), 200));
    }

    /** Uploads hold worker threads while they stream: they may never take the ones the drain needs. */
    private void uploadsFit(LeaseholdConfig c, int workerThreads) {
        int most = workerThreads - c.drain().concurrency() - SPARE_WORKERS;
        if (c.item().maxUploads() > most) {
            problem("leasehold.item.max-uploads", "(" + c.item().maxUploads() + ") must leave worker threads for "
                    + "the drain: at most quarkus.thread-pool.max-threads (" + workerThreads
                    + ") - leasehold.drain.concurrency (" + c.drain().concurrency() + ") - " + SPARE_WORKERS
                    + " = " + most);
        }
    }

    /** {@code quarkus.http.limits.max-connections}: derived by {@link DescriptorDefaults} unless set. */
    static OptionalInt maxConnections() {
        return ConfigProvider.getConfig().getOptionalValue(DescriptorDefaults.MAX_CONNECTIONS, Integer.class)
                .map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    /** Clients may never take the descriptors the service keeps for its own work ({@link DescriptorBudget}). */
    private void connectionsFit(LeaseholdConfig c, long limit, OptionalInt maxConnections) {
        DescriptorBudget budget = new DescriptorBudget(limit, c.drain().concurrency());
        if (budget.connections() < 1) {
            problem(DescriptorDefaults.CONCURRENCY, "(" + c.drain().concurrency() + ") leaves no descriptors for HTTP"
                    + " connections under this process's open-files limit (ulimit -n " + limit + "): the reserve is "
                    + budget.reserveText() + "; raise the limit to at least "
                    + (budget.reserve() + DescriptorBudget.PER_CONNECTION) + " or lower the concurrency");
        } else if (maxConnections.isEmpty() || maxConnections.getAsInt() > budget.connections()) {
            String most = "at most (open files " + limit + " - reserve " + budget.reserveText() + ") / "
                    + DescriptorBudget.PER_CONNECTION + " per connection = " + budget.connections();
            problem(DescriptorDefaults.MAX_CONNECTIONS, maxConnections.isEmpty()
                    ? "is unset (no cap), so clients could take every descriptor: " + most
                    : "(" + maxConnections.getAsInt() + ") leaves the service too few descriptors: " + most
                            + " (unset, that is the default)");
        }
    }

    /**
     * The checks of the keys command mode ({@code lease ...}, {@code items ...}, {@code spool ...}) uses:
     * the spool directory and kind, the lease and the bus. It runs no drain and no API, so their keys are not its business.
     */
    public static void requireForCommands(LeaseholdConfig config) {
        ConfigCheck check = new ConfigCheck();
        check.spoolDir(config);
        check.spoolKind(config); // items ... and spool ... open the spool of this kind
        check.lease(config.lease());
        check.nats(config);
        check.stopIfAny();
    }

    private void stopIfAny() {
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(String.join("; ", problems));
        }
    }

    private void spoolDir(LeaseholdConfig c) {
        if (c.spool().dir().isBlank()) {
            problem("leasehold.spool.dir", "must name a directory");
        }
    }

    private void spoolKind(LeaseholdConfig c) {
        String kind = c.spool().kind();
        if (!kind.equals("directory") && !kind.equals("jetstream")) {
            problem("leasehold.spool.kind", "must be 'directory' or 'jetstream', got '" + kind + "'");
            return;
        }
        if (kind.equals("jetstream")) {
            if (c.nats().url().filter(u -> !u.isBlank()).isEmpty()) {
                problem("leasehold.spool.kind", "jetstream needs leasehold.nats.url (or NATS_URL)");
            }
            LeaseholdConfig.JetStreamSpoolConfig js = c.spool().jetstream();
            if (!js.bucket().matches("[A-Za-z0-9_-]+")) {
                problem("leasehold.spool.jetstream.bucket", "must match [A-Za-z0-9_-]+, got '" + js.bucket() + "'");
            }
            if (js.replicas() < 1 || js.replicas() > MAX_REPLICAS) {
                problem("leasehold.spool.jetstream.replicas", "must be between 1 and " + MAX_REPLICAS + ", got "
                        + js.replicas());
            }
        }
    }

    private void all(LeaseholdConfig c) {
        spoolDir(c);
        spoolKind(c);
        if (c.metrics().stuckAfterLeases() < 1) {
            problem("leasehold.metrics.stuck-after-leases", "must be at least 1, got " + c.metrics().stuckAfterLeases());
        }
        if (c.spool().tmpMaxAge().compareTo(Duration.ofMinutes(1)) < 0) {
            // Shorter could remove an upload still streaming in, or a reason being written.
            problem("leasehold.spool.tmp-max-age", "must be at least 1m, got " + c.spool().tmpMaxAge());
        } else if (c.spool().tmpMaxAge().compareTo(c.item().uploadTimeout().multipliedBy(2)) < 0) {
            // A JetStream batch still staging at half of it is refused (housekeeping may take it for dead).
            problem("leasehold.spool.tmp-max-age", "must be at least twice leasehold.item.upload-timeout ("
                    + c.item().uploadTimeout() + "), got " + c.spool().tmpMaxAge());
        }
        if (c.spool().recountEvery().compareTo(TICK_RESOLUTION) < 0) {
            problem("leasehold.spool.recount-every", "must be at least 1s, got " + c.spool().recountEvery());
        }
        notNegative("leasehold.spool.done-max-age", c.spool().doneMaxAge(), "done");
        notNegative("leasehold.spool.failed-max-age", c.spool().failedMaxAge(), "failed");
        positive("leasehold.claim.lease", c.claim().lease());
        if (c.claim().renewalsPerLease() < 2) {
            problem("leasehold.claim.renewals-per-lease", "must be at least 2, got " + c.claim().renewalsPerLease());
        } else if (c.claim().lease().dividedBy(c.claim().renewalsPerLease()).compareTo(TICK_RESOLUTION) < 0) {
            problem("leasehold.claim.lease", "divided by leasehold.claim.renewals-per-lease must be at least 1s, got "
                    + c.claim().lease() + " / " + c.claim().renewalsPerLease());
        }
        if (c.claim().maxSkew().isNegative()) {
            problem("leasehold.claim.max-skew", "must not be negative, got " + c.claim().maxSkew());
        }
        if (c.drain().concurrency() < 1) {
            problem("leasehold.drain.concurrency", "must be at least 1, got " + c.drain().concurrency());
        }
        if (c.drain().pollInterval().compareTo(TICK_RESOLUTION) < 0) {
            problem("leasehold.drain.poll-interval", "must be at least 1s, got " + c.drain().pollInterval());
        }
        if (c.drain().maxAttempts() < 1) {
            problem("leasehold.drain.max-attempts", "must be at least 1, got " + c.drain().maxAttempts());
        }
        if (!c.drain().mode().equals("claims") && !c.drain().mode().equals("leader")) {
            problem("leasehold.drain.mode", "must be 'claims' or 'leader', got '" + c.drain().mode() + "'");
        }
        positive("leasehold.drain.backoff-initial", c.drain().backoffInitial());
        if (c.drain().backoffMax().compareTo(c.drain().backoffInitial()) < 0) {
            problem("leasehold.drain.backoff-max", "must not be below leasehold.drain.backoff-initial");
        }
        if (c.drain().shutdownTimeout().isNegative()) {
            problem("leasehold.drain.shutdown-timeout", "must not be negative");
        }
        if (c.handler().timeout().isNegative()
                || (!c.handler().timeout().isZero() && c.handler().timeout().toMillis() < 1)) {
            problem("leasehold.handler.timeout", "must be 0 (none) or at least 1ms, got " + c.handler().timeout());
        }
        if (c.handler().name().equals("exec") && c.handler().exec().command().filter(s -> !s.isBlank()).isEmpty()) {
            problem("leasehold.handler.exec.command", "is required when leasehold.handler=exec");
        }
        if (c.handler().name().equals("http")) {
            http(c.handler().http());
        }
        if (c.item().maxBytes().asLongValue() < 1) {
            problem("leasehold.item.max-bytes", "must be at least 1 byte");
        }
        if (c.item().maxUploads() < 1) {
            problem("leasehold.item.max-uploads", "must be at least 1, got " + c.item().maxUploads());
        }
        if (c.item().maxBatch() < 1) {
            problem("leasehold.item.max-batch", "must be at least 1, got " + c.item().maxBatch());
        }
        if (c.item().uploadTimeout().toMillis() < 1000) {
            problem("leasehold.item.upload-timeout", "must be at least 1s, got " + c.item().uploadTimeout());
        }
        lease(c.lease());
        nats(c);
        if (c.api().token().filter(String::isBlank).isPresent()) {
            problem("leasehold.api.token", "must not be blank when set");
        }
    }

    private void nats(LeaseholdConfig c) {
        positive("leasehold.nats.connect-timeout", c.nats().connectTimeout());
        positive("leasehold.nats.request-timeout", c.nats().requestTimeout());
        if (c.nats().requestTimeout().compareTo(c.lease().duration()) >= 0) {
            // NATS reports a permission refusal only when its request times out: a candidate waits at most
            // a lease duration for an answer, so a longer timeout would hide the refusal (no unleased mode).
            problem("leasehold.nats.request-timeout", "(" + c.nats().requestTimeout()
                    + ") must be shorter than leasehold.lease.duration (" + c.lease().duration() + ")");
        }
        if (c.nats().user().isPresent() != c.nats().password().isPresent()) {
            problem("leasehold.nats.password", "and leasehold.nats.user go together");
        }
    }

    private void http(LeaseholdConfig.HttpConfig http) {
        Optional<String> url = http.url().filter(s -> !s.isBlank());
        if (url.isEmpty()) {
            problem("leasehold.handler.http.url", "is required when leasehold.handler=http (or set K_SINK)");
        } else if (!isHttpUrl(url.get())) {
            problem("leasehold.handler.http.url", "must be an absolute http:// or https:// URL with a host, got '"
                    + url.get() + "'");
        }
        if (http.source().filter(String::isBlank).isPresent()) {
            problem("leasehold.handler.http.source", "must not be blank when set");
        }
        if (http.type().isBlank()) {
            problem("leasehold.handler.http.type", "must not be blank");
        }
        if (http.contentType().isBlank()) {
            problem("leasehold.handler.http.content-type", "must not be blank");
        }
    }

    private static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme();
            return uri.getHost() != null && ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private void lease(LeaseholdConfig.LeaseConfig lease) {
        try {
            new LeaseTiming(lease.duration(), lease.renewEvery(), lease.renewDeadline());
        } catch (LeaseTiming.Invalid e) {
            problem(e.key(), e.rule());
        }
        if (lease.renewEvery().compareTo(TICK_RESOLUTION) < 0) {
            problem("leasehold.lease.renew-every", "must be at least 1s, got " + lease.renewEvery());
        }
        if (lease.replicas() < 1 || lease.replicas() > MAX_REPLICAS) {
            problem("leasehold.lease.replicas", "must be between 1 and " + MAX_REPLICAS + ", got " + lease.replicas());
        }
        if (!lease.bucket().matches("[A-Za-z0-9_-]+")) {
            problem("leasehold.lease.bucket", "must match [A-Za-z0-9_-]+, got '" + lease.bucket() + "'");
        }
        if (!lease.key().matches("[-/_=.A-Za-z0-9]+") || lease.key().startsWith(".") || lease.key().endsWith(".")) {
            problem("leasehold.lease.key", "must be a NATS KV key ([-/_=.A-Za-z0-9]+, no leading or trailing '.'), got '"
                    + lease.key() + "'");
        }
    }

    private void notNegative(String key, Duration maxAge, String state) {
        if (maxAge.isNegative()) {
            problem(key, "must not be negative (0 keeps " + state + " items forever), got " + maxAge);
        }
    }

    private void positive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            problem(key, "must be positive, got " + value);
        }
    }

    private void problem(String key, String what) {
        problems.add(key + " " + what);
    }

    /** Stops the start; its message names the offending keys. */
    public static final class InvalidConfigException extends RuntimeException {
        public InvalidConfigException(String message) {
            super("invalid configuration: " + message);
        }
    }
}
