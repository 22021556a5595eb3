package io.leasehold.metrics;

import io.leasehold.drain.DrainEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The drain's events as Micrometer meters, scraped at /q/metrics. */
@Singleton
public class MicrometerDrainEvents implements DrainEvents {

    /**
     * Fixed histogram buckets for handler durations, from a fast http call to a long exec job: the same
     * buckets on every instance, so dashboards can add them up and take quantiles across the fleet.
     */
    static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
        Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15)};

    private final MeterRegistry registry;
    private final Counter claims;
    private final Counter renewals;
    private final Counter takeovers;
    private final Counter lost;
    private final Counter handedBack;
    private final Counter settleFailures;
    private final Counter outputsNotKept;
    private final Map<String, Counter> attempts = new ConcurrentHashMap<>();
    private final Map<String, Timer> durations = new ConcurrentHashMap<>();

    public MicrometerDrainEvents(MeterRegistry registry) {
        this.registry = registry;
        this.claims = Counter.builder("leasehold.claims").description("items claimed from pending/")
                .register(registry);
        this.renewals = Counter.builder("leasehold.renewals").description("claim leases renewed")
                .register(registry);
        this.takeovers = Counter.builder("leasehold.takeovers")
                .description("expired claims taken over from a holder that stopped, or after a backoff")
                .register(registry);
        this.lost = Counter.builder("leasehold.claims.lost")
                .description("claims found taken over by another instance while held").register(registry);
        this.handedBack = Counter.builder("leasehold.claims.handed.back")
                .description("claims handed back to pending/ at shutdown").register(registry);
        this.settleFailures = Counter.builder("leasehold.settlements.failed")
                .description("settlements that could not be written (e.g. a full disk); each is tried again")
                .register(registry);
        this.outputsNotKept = Counter.builder("leasehold.outputs.not.kept")
                .description("attempt outputs that could not be kept (e.g. a full disk); their items settled all"
                        + " the same").register(registry);
    }

    @Override
    public void claimed(String id) {
        claims.increment();
    }

    @Override
    public void renewed(String id) {
        renewals.increment();
    }

    @Override
    public void tookOver(String id, int attempt) {
        takeovers.increment();
    }

    @Override
    public void lost(String id) {
        lost.increment();
    }

    @Override
    public void attempted(String id, String outcome, Duration took) {
        // Looked up once per outcome: building and registering a meter for every item costs more than the item.
        attempts.computeIfAbsent(outcome, o -> Counter.builder("leasehold.attempts")
                .description("handler attempts by outcome").tag("outcome", o).register(registry)).increment();
        durations.computeIfAbsent(outcome, o -> Timer.builder("leasehold.handler.duration")
                .description("time one handler attempt took").tag("outcome", o)
                .serviceLevelObjectives(BUCKETS).register(registry)).record(took);
    }

    @Override
    public void handedBack(String id) {
        handedBack.increment();
    }

    @Override
    public void settleFailed(String id, String error) {
        settleFailures.increment();
    }

    @Override
    public void outputNotKept(String id, int attempt, String error) {
        outputsNotKept.increment();
    }
}
