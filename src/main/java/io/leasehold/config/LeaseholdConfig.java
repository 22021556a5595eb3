package io.leasehold.config;

import io.leasehold.core.TakeoverRule;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Every {@code leasehold.*} setting, with its default. Checked once at start by {@link ConfigCheck}. */
@ConfigMapping(prefix = "leasehold")
public interface LeaseholdConfig {

    /** Also read before this mapping exists, to derive the descriptor budget ({@link DescriptorDefaults}). */
    String DEFAULT_CONCURRENCY = "4";

    SpoolConfig spool();

    ClaimConfig claim();

    DrainConfig drain();

    HandlerConfig handler();

    ItemConfig item();

    ApiConfig api();

    NatsConfig nats();

    LeaseConfig lease();

    MetricsConfig metrics();

    /** Recurring schedules by name: {@code leasehold.schedules."<name>".*} (docs/schedules.md). */
    Map<String, ScheduleConfig> schedules();

    interface ScheduleConfig {
        /** Quartz cron with seconds, as quarkus-scheduler reads it ({@code 0 0 2 * * ?}); or {@link #every}. */
        Optional<String> cron();

        /** A period, whole seconds, its fire times the multiples of it since 1970-01-01T00:00:00Z; or {@link #cron}. */
        Optional<Duration> every();

        /** The zone a cron expression is read in (UTC when unset); an every schedule has none. */
        Optional<String> timeZone();

        /** The items' payload, as text. */
        Optional<String> payload();

        /** {@code latest}, {@code all} or {@code skip}: what to do with fire times nobody fired. */
        @WithDefault("latest")
        String misfire();

        /**
         * With {@code misfire=all}: the most misfires (fire times over a minute old) one catch-up makes, the latest
         * ones; the fire times still on time come on top.
         */
        @WithDefault("100")
        int maxCatchUp();

        /** Starts paused (until resumed by hand: what the spool keeps wins). */
        @WithDefault("false")
        boolean paused();
    }

    interface MetricsConfig {
        /** A running claim held longer than this many claim leases counts as stuck ({@code leasehold_claims_stuck}). */
        @WithDefault("3")
        int stuckAfterLeases();
    }

    interface SpoolConfig {
        /** {@code directory} (the shared folder below) or {@code jetstream} (NATS, no shared filesystem). */
        @WithDefault("directory")
        String kind();

        /** The shared work directory; with the JetStream spool, where this instance keeps its epoch floor. */
        @WithDefault("spool")
        String dir();

        JetStreamSpoolConfig jetstream();

        /**
         * Reserve an id by a symbolic link to its item's inode number (one call, no data block); false: by a
         * plain file, which builds before 2026-12-07 need to read, for a fleet upgraded one instance at a time.
         */
        @WithDefault("true")
        boolean reservationLinks();

        /**
         * Settle by one renameat2(RENAME_NOREPLACE) and date the settlement by one utimensat, where the JDK can
         * call them (Java 22 and later) and the filesystem has them; false: the JDK's link, unlink and set-times.
         */
        @WithDefault("true")
        boolean linuxCalls();

        /** Files in tmp/ older than this are leftovers of a crash and are removed. */
        @WithDefault("1h")
        Duration tmpMaxAge();

        /** How often the census lists the folders for what other programs and instances moved. */
        @WithDefault("5s")
        Duration recountEvery();

        /** How often housekeeping runs: crash leftovers, stale bookkeeping, retention's slice. */
        @WithDefault("1m")
        Duration housekeepingEvery();

        /** Done items settled longer ago than this are purged by housekeeping; 0 keeps them forever. */
        @WithDefault("0")
        Duration doneMaxAge();

        /** Failed items settled longer ago than this are purged by housekeeping; 0 keeps them forever. */
        @WithDefault("0")
        Duration failedMaxAge();
    }

    /** The JetStream spool (docs/jetstream-spool.md). */
    interface JetStreamSpoolConfig {
        /** The ledger's KV bucket; payloads go to an object store named after it, with -payloads. */
        @WithDefault("leasehold-items")
        String bucket();

        /** Copies of each bucket (more needs a JetStream cluster). */
        @WithDefault("1")
        int replicas();
    }

    interface ClaimConfig {
        @WithDefault("120s")
        Duration lease();

        @WithDefault("3")
        int renewalsPerLease();

        @WithDefault("10s")
        Duration maxSkew();

        /** {@code observed}: a taker also needs the claim seen unrenewed on its own clock; {@code reading}: not. */
        @WithDefault("observed")
        TakeoverRule takeover();
    }

    interface DrainConfig {
        @WithDefault(DEFAULT_CONCURRENCY)
        int concurrency();

        @WithDefault("1s")
        Duration pollInterval();

        @WithDefault("5")
        int maxAttempts();

        /** claims: every instance drains; leader: only the controller-lease holder drains. */
        @WithDefault("claims")
        String mode();

        /** False: claim only during a drain pass ({@code POST /drain}), e.g. under a cron trigger. */
        @WithDefault("true")
        boolean auto();

        @WithDefault("1s")
        Duration backoffInitial();

        @WithDefault("5m")
        Duration backoffMax();

        /** How long running work may finish at shutdown before its claims are handed back. */
        @WithDefault("20s")
        Duration shutdownTimeout();
    }

    interface HandlerConfig {
        /** log, exec, http, or the @Named name of a CDI bean implementing Handler. */
        @WithParentName
        @WithDefault("log")
        String name();

        /** Per attempt; 0 for none. */
        @WithDefault("0")
        Duration timeout();

        ExecConfig exec();

        HttpConfig http();
    }

    interface ExecConfig {
        Optional<String> command();
    }

    interface HttpConfig {
        /** Where the http handler POSTs; a Knative SinkBinding injects K_SINK. */
        @WithDefault("${K_SINK:}")
        Optional<String> url();

        /**
         * The CloudEvent ce-source; unset: {@code /leasehold} followed by the spool's absolute path, the
         * same for every instance draining that spool, so a retry by another instance is a redelivery.
         */
        Optional<String> source();

        /** The CloudEvent ce-type. */
        @WithDefault("io.leasehold.item")
        String type();

        /** The Content-Type the payload is sent with. */
        @WithDefault("application/octet-stream")
        String contentType();
    }

    interface ItemConfig {
        @WithDefault("1M")
        MemorySize maxBytes();

        /**
         * Uploads streaming at once; more are answered 503, so they never take every worker thread. Unset,
         * the descriptor budget's ({@link DescriptorDefaults}), 64 when descriptors are plenty.
         */
        @WithDefault("" + DescriptorBudget.MOST_UPLOADS)
        int maxUploads();

        /** An upload that has not finished in this time is answered 408 and nothing is kept. */
        @WithDefault("30s")
        Duration uploadTimeout();

        /** Lines (items) one POST /items/batch may hold; more are answered 413. */
        @WithDefault("1000")
        int maxBatch();
    }

    interface ApiConfig {
        /** The operator's token: every call, changes included. */
        Optional<String> token();

        /** The viewer's token: reads only; needs {@link #token()} beside it. */
        Optional<String> viewerToken();
    }

    /** How to reach NATS; without a URL the service runs in no-bus mode (epoch 0). */
    interface NatsConfig {
        /** Comma-separated server URLs; the NATS_URL environment variable works too. */
        @WithDefault("${NATS_URL:}")
        Optional<String> url();

        Optional<String> user();

        Optional<String> password();

        Optional<String> token();

        /** A .creds file (JWT + NKey seed). */
        Optional<String> credentials();

        TlsConfig tls();

        @WithDefault("2s")
        Duration connectTimeout();

        /** Bounds each JetStream call; the lease bounds it further by the time left to its deadline. */
        @WithDefault("2s")
        Duration requestTimeout();
    }

    /** TLS to NATS: a tls:// URL alone uses the JVM's default trust; these add a truststore or a client key. */
    interface TlsConfig {
        Optional<String> truststore();

        Optional<String> truststorePassword();

        Optional<String> keystore();

        Optional<String> keystorePassword();
    }

    interface LeaseConfig {
        @WithDefault("leasehold-lease")
        String bucket();

        @WithDefault("controller")
        String key();

        @WithDefault("15s")
        Duration duration();

        @WithDefault("5s")
        Duration renewEvery();

        @WithDefault("10s")
        Duration renewDeadline();

        /** Replicas of the bucket's stream when this service makes it; an existing bucket is kept as it is. */
        @WithDefault("1")
        int replicas();
    }
}
