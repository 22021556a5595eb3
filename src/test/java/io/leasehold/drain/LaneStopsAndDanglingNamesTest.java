package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A drain's lanes at their edges: a stop during a look leaves no handler running on the item handed back,
 * an attempt on a claim already lost never calls the handler, and an item whose settled name is a dangling
 * symlink is neither claimed nor able to stall the drain.
 */
class LaneStopsAndDanglingNamesTest extends SpoolTestBase {

    /**
     * stopNow (the lease was lost, on the lease thread) while a slot is in its look: the claim is
     * handed back to pending/, but the run is not yet in {@code working} (it is put there only after
     * work.on returned), so it is not cancelled, and the handler starts on an item that is back in
     * pending/ (and may run on another instance meanwhile), and is never cancelled.
     */
    @Test
    void aStopDuringTheLookLeavesNoHandlerRunningOnTheHandedBackItem() throws Exception {
        AtomicReference<FaultySpool> hook = new AtomicReference<>();
        Instance a = new Instance(layout, T0, 5, true, ArrivalWatch.NONE, real -> {
            FaultySpool h = new FaultySpool(real);
            hook.set(h);
            return h;
        });
        instances.add(a);
        AtomicBoolean once = new AtomicBoolean();
        hook.get().afterPayload = () -> {
            if (once.compareAndSet(false, true)) {
                Thread lease = new Thread(a.drainer::stopNow, "lease-lost");
                lease.start();
                try {
                    lease.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        enqueue("x");
        a.poll();
        Await.until("the look of x ran (on the slot's worker, right after the poll's claim)", WAIT, once::get);
        Await.until("x handed back to pending/", WAIT, () -> settledIn(SpoolFolder.PENDING, "x"));
        // Whatever a fix does (not start the handler, or cancel it), the run must end: nothing of a
        // stopped drain may keep working on an item it handed back.
        Await.until("a's run on x has ended (never started, or cancelled) and x is no longer held", WAIT,
                () -> a.drainer.claimsHeld() == 0
                        && (a.handler.startedAttempts("x").isEmpty() || a.handler.cancelled.contains("x")));
    }

    /**
     * A claim found lost just before the handler starts: the attempt decides "lost" at once, but
     * still calls handler.handle (an eager handler acts on an item it no longer holds).
     */
    @Test
    void anAttemptOnAClaimAlreadyLostNeverCallsTheHandler() {
        HeldClaim claim = new HeldClaim(new ClaimName("x", Generation.first(), T0));
        claim.markLost();
        AtomicInteger calls = new AtomicInteger();
        Handler eager = item -> {
            calls.incrementAndGet(); // e.g. a bean that sends its request here, not on subscription
            return Uni.createFrom().item(Outcome.done());
        };
        AtomicReference<Outcome> decided = new AtomicReference<>();
        Attempt.start(eager, new WorkItem("x", 1, new byte[0], 7, Instant.EPOCH), claim, new DrivenClock(), Duration.ofHours(1),
                new CountingEvents(), decided::set);
        assertTrue(decided.get() instanceof Outcome.Lost, "decided " + decided.get());
        assertEquals(0, calls.get(), "handler.handle was called for a claim already lost");
    }

    /**
     * A dangling symlink at done/x (junk): before bdfd29b the careful look saw it and the dropped-in
     * pending/x was a duplicate, reported and never run. The quick look (File.exists follows the
     * link) answers "absent", so x is reserved and claimed, and its settlement's link then fails on
     * the symlink (DuplicateItemException) at every retry: the handler ran, the item never settles.
     */
    @Test
    void aDroppedInItemWhoseDoneNameIsADanglingSymlinkIsNotClaimed() throws IOException {
        Files.createSymbolicLink(layout.file(SpoolFolder.DONE, "x"), dir.resolve("nowhere"));
        enqueue("x");
        Instance a = instance(T0);
        a.poll();
        assertEquals(List.of(), claims(), "x was claimed although done/x holds junk");
        assertTrue(settledIn(SpoolFolder.PENDING, "x"));
    }

    /**
     * The consequence: each such item occupies a slot for good (its settlement is retried forever,
     * `done` never comes), so with concurrency 2 two of them stop the drain: a good item never runs.
     */
    @Test
    void itemsWithADanglingSettledNameDoNotStallTheDrain() throws IOException {
        for (String id : List.of("j1", "j2")) {
            Files.createSymbolicLink(layout.file(SpoolFolder.DONE, id), dir.resolve("nowhere-" + id));
            enqueue(id);
        }
        Instance a = instance(T0);
        a.poll();
        List<ClaimName> taken = claims();
        for (ClaimName claim : taken) {
            a.handler.awaitStarted(claim.id(), 1);
            a.handler.finish(claim.id(), Outcome.done());
        }
        Await.until("the settlements of what was claimed were tried", WAIT,
                () -> a.drainer.settlementsWaiting() == taken.size() || a.drainer.claimsHeld() == 0);
        a.clock.advance(Duration.ofSeconds(60)); // renewal ticks retry the settlements
        enqueue("good");
        a.poll();
        Await.until("good is claimed", WAIT, () -> {
            try {
                return claims().stream().anyMatch(c -> c.id().equals("good"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
