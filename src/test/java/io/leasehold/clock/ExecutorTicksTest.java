package io.leasehold.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.clock.ExecutorTicks.Job;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * One tick's runs, its schedule played by the test: {@code due()} is the schedule's call, and the
 * executor that would run a missed tick only collects it, for the test to run. No time passes.
 */
class ExecutorTicksTest {

    private static final Logger LOG = Logger.getLogger(ExecutorTicksTest.class);

    private final List<Runnable> submitted = new ArrayList<>();
    private final List<CompletableFuture<Void>> runs = new ArrayList<>();

    /** A tick that runs until the test completes its future. */
    private Job slowTick() {
        return new Job(submitted::add, "slow", () -> {
            CompletableFuture<Void> run = new CompletableFuture<>();
            runs.add(run);
            return Uni.createFrom().completionStage(run);
        }, LOG);
    }

    @Test
    void aTickDueWhileTheLastStillRunsRunsOnceAsSoonAsThatEnds() {
        Job job = slowTick();
        job.due();
        job.due();
        job.due();
        assertEquals(1, runs.size(), "never two runs at once");
        assertEquals(List.of(), submitted, "nothing more until the run ends");

        runs.get(0).complete(null);
        assertEquals(1, submitted.size(), "the two missed dues make one run, at the end of the first");
        submitted.remove(0).run();
        assertEquals(2, runs.size());

        runs.get(1).complete(null);
        assertEquals(List.of(), submitted, "nothing fell due meanwhile: nothing more runs");
        job.due();
        assertEquals(3, runs.size(), "the next due runs at once");
    }

    @Test
    void aFailedRunAlsoRunsTheMissedOne() {
        Job job = slowTick();
        job.due();
        job.due();
        runs.get(0).completeExceptionally(new IllegalStateException("a failed renewal"));
        assertEquals(1, submitted.size());
        submitted.remove(0).run();
        assertEquals(2, runs.size());
    }

    @Test
    void aTickWhoseSupplierThrowsAnErrorGoesOnTicking() {
        AtomicInteger calls = new AtomicInteger();
        Job job = new Job(submitted::add, "throws", () -> {
            if (calls.incrementAndGet() == 1) {
                throw new StackOverflowError("thrown by the supplier itself");
            }
            return Uni.createFrom().voidItem();
        }, LOG);
        job.due(); // an Error escaping to the schedule would end it for good, silently
        job.due();
        job.due();
        assertEquals(3, calls.get(), "each due ran: none was taken for still running");
        assertEquals(List.of(), submitted);
    }

    @Test
    void aClosedTickRunsNoMoreEvenIfOneWasMissed() {
        Job job = slowTick();
        job.due();
        job.due();
        job.close();
        runs.get(0).complete(null);
        submitted.forEach(Runnable::run);
        job.due();
        assertEquals(1, runs.size(), "closed: neither the missed due nor a later one runs");
    }
}
