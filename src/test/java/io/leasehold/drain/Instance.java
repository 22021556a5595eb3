package io.leasehold.drain;

import io.leasehold.config.Mapped;
import io.leasehold.core.Backoff;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.TakeoverRule;
import io.leasehold.directory.DirectoryDrainSwitch;
import io.leasehold.directory.DirectoryOutputs;
import io.leasehold.directory.PosixSpool;
import io.leasehold.directory.SpoolAnomalies;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.Spool;
import io.leasehold.testing.DrivenClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * One service instance on a shared spool, as the drain sees it: its own driven clock, its own
 * handler, real files. An instance the test stops ticking is a frozen or killed one.
 */
final class Instance implements AutoCloseable {

    static final LeaseTerms TERMS = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));
    static final Duration TAKEABLE_AFTER = Duration.ofSeconds(130);

    final DrivenClock clock = new DrivenClock();
    final HeldHandler handler = new HeldHandler();
    final CountingEvents events = new CountingEvents();
    final SpoolAnomalies anomalies = new SpoolAnomalies();
    final PosixSpool spool;
    /** Epoch 7 for every act unless a test closes the gate. */
    final TestGate gate = new TestGate();
    final Drainer drainer;
    private final ExecutorService workers = Executors.newCachedThreadPool();

    Instance(SpoolLayout layout, Instant start, int maxAttempts, boolean auto) {
        this(layout, start, maxAttempts, auto, ArrivalWatch.NONE);
    }

    /** With a real directory watch on pending/, as in production. */
    Instance(SpoolLayout layout, Instant start, int maxAttempts, boolean auto, ArrivalWatch arrivals) {
        this(layout, start, maxAttempts, auto, arrivals, UnaryOperator.identity(), TakeoverRule.READING);
    }

    /** Draining through {@code decorate(spool)}, e.g. a {@link FaultySpool}; the test's own looks use the real one. */
    Instance(SpoolLayout layout, Instant start, int maxAttempts, boolean auto, ArrivalWatch arrivals,
            UnaryOperator<Spool> decorate) {
        this(layout, start, maxAttempts, auto, arrivals, decorate, TakeoverRule.READING);
    }

    /**
     * With the given takeover rule. The other constructors take over by the reading alone, which the
     * protocol tests written before {@link TakeoverRule#OBSERVED} assume; ObservedTakeoverTest tests that.
     */
    Instance(SpoolLayout layout, Instant start, int maxAttempts, boolean auto, ArrivalWatch arrivals,
            TakeoverRule takeover) {
        this(layout, start, maxAttempts, auto, arrivals, UnaryOperator.identity(), takeover);
    }

    private Instance(SpoolLayout layout, Instant start, int maxAttempts, boolean auto, ArrivalWatch arrivals,
            UnaryOperator<Spool> decorate, TakeoverRule takeover) {
        clock.set(start);
        spool = new PosixSpool(layout, anomalies, clock, Mapped.defaults().item().maxBytes().asLongValue());
        DrainSettings settings = new DrainSettings(2, maxAttempts, Duration.ofSeconds(1), Duration.ZERO,
                new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8)), Duration.ZERO, takeover);
        drainer = new Drainer(decorate.apply(spool), clock, TERMS, settings, handler, gate, workers, workers,
                arrivals, events, auto, new DrainPause(new DirectoryDrainSwitch(layout), clock),
                new OutputKeeping(new DirectoryOutputs(layout), "test"));
        drainer.start();
    }

    Instance(SpoolLayout layout, Instant start) {
        this(layout, start, 5, true);
    }

    /** One poll: expired claims are taken over, then pending items claimed. */
    void poll() {
        clock.tick("leasehold-poll");
    }

    void renew() {
        clock.tick("leasehold-renew");
    }

    /** A gate the test opens and closes. */
    static final class TestGate implements io.leasehold.lease.LeaseGate {
        volatile String refusal;
        volatile long epoch = 7L;
        volatile boolean claiming = true;

        @Override
        public boolean mayClaim() {
            return claiming;
        }

        @Override
        public long epochForAct() throws io.leasehold.lease.ActRefused {
            String why = refusal;
            if (why != null) {
                throw new io.leasehold.lease.ActRefused(why);
            }
            return epoch;
        }
    }

    @Override
    public void close() {
        workers.shutdownNow();
        try {
            // A worker still settling writes into the spool: the test's temporary folder is removed next,
            // and a write racing that removal fails the test (seen on a loaded machine).
            workers.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
