package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.SpoolEpochFloor;
import io.leasehold.nats.DefaultBus;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsKvLeaseStore;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.NatsServer;
import io.smallrye.mutiny.Uni;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller lease between instances, on a real nats-server, with time driven by the test. */
class ControllerLeaseTest {

    static final LeaseTiming TIMING = new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(5),
            Duration.ofSeconds(10));

    @TempDir
    Path spool;
    NatsServer server;
    String bucket;
    final List<AutoCloseable> closing = new ArrayList<>();
    final ExecutorService workers = Executors.newCachedThreadPool();

    /** One process: its own clock, connection and lost-counter, on the shared bucket and spool. */
    final class Instance {
        final DrivenClock clock = new DrivenClock();
        final RecordingLeaseEvents events = new RecordingLeaseEvents();
        final ControllerLease lease;
        final Borrowing borrowing;
        final List<Borrowing.Lapse> lapses = new ArrayList<>();

        Instance(String name) throws Exception {
            NatsBus bus = NatsConnector.connect(DefaultBus.settings(server.url()).withRequestTimeout(Duration.ofMillis(500)));
            closing.add(bus);
            NatsKvLeaseStore store = new NatsKvLeaseStore(bus, bucket, "controller");
            store.ensureBucket();
            lease = new ControllerLease(store, new SpoolEpochFloor(spool), clock, TIMING,
                    new Holder(name, "test-host", "test"), Runnable::run, workers, events);
            borrowing = new Borrowing(store, clock, TIMING, new Holder(name, "test-host", "test"), lapses::add);
            lease.lendWhileWaiting(borrowing);
            clock.every("lease", TIMING.renewEvery(), () -> Uni.createFrom().completionStage(lease::tick));
        }

        String mode() {
            return lease.standing().mode();
        }

        void step() {
            clock.tick("lease");
        }
    }

    @BeforeEach
    void startServer() {
        server = NatsServer.start();
        bucket = "lease-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        workers.shutdownNow();
        server.close();
    }

    @Test
    void theFirstTakesItAndTheOtherActsUnderTheHoldersEpochOnceItSeesItRenewed() throws Exception {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        a.step();
        b.step();
        b.borrowing.look();
        assertEquals("held", a.mode());
        long epoch = a.lease.epochForAct();
        assertTrue(epoch > 0);
        assertEquals("waiting", b.mode());
        assertEquals("a", b.lease.standing().holder().instance());
        assertThrows(ActRefused.class, b.lease::epochForAct, "a first sight lends nothing: the entry may be old");
        assertTrue(!b.lease.canAct());
        assertEquals(epoch, new SpoolEpochFloor(spool).highest(), "the floor records the epoch");
        a.clock.advance(TIMING.renewEvery()); // a renews
        b.borrowing.look();
        assertEquals(epoch, b.lease.epochForAct(), "seen renewed: a waiting instance acts under the holder's epoch");
        assertTrue(b.lease.canAct());
        assertTrue(!b.lease.leads());
    }

    @Test
    void aHolderThatRenewsKeepsItAndTheEpochStays() throws Exception {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        a.step();
        long epoch = a.lease.epochForAct();
        for (int i = 0; i < 12; i++) { // a minute: four full durations
            a.clock.advance(TIMING.renewEvery());
            b.clock.advance(TIMING.renewEvery());
        }
        assertEquals("held", a.mode());
        assertEquals("waiting", b.mode());
        assertEquals(epoch, a.lease.epochForAct());
        assertNotNull(a.lease.standing().renewedAt());
    }

    @Test
    void aLeaseThatComesDueBetweenTwoTicksIsTakenWhenItDoesNotAPeriodLater() throws Exception {
        Instance a = new Instance("a");
        a.step();
        long first = a.lease.epochForAct();
        Instance b = new Instance("b");
        long seen = b.clock.monotonicNanos();
        b.step(); // sees a's revision (the driven clock stands still during the read)
        // The tick that should find the duration up comes a millisecond early, as real ticks and reads
        // do; a frozen a never renews. Waiting for the next tick would take over a whole period late.
        b.clock.pass(TIMING.duration().minus(Duration.ofMillis(1)));
        b.step();
        assertEquals("waiting", b.mode(), "a millisecond short of the duration");
        b.clock.advance(Duration.ofMillis(1)); // no tick falls due: the take's own timer does
        assertEquals("held", b.mode(), "taken when the duration was up");
        assertEquals(TIMING.duration().toNanos(), b.clock.monotonicNanos() - seen,
                "after exactly the full duration on b's own clock, never before");
        assertTrue(b.lease.epochForAct() > first);
    }

    @Test
    void aCandidateTakesOverOnlyAfterSeeingItUnrenewedForAFullDuration() throws Exception {
        Instance a = new Instance("a");
        a.step();
        long first = a.lease.epochForAct();
        Instance b = new Instance("b");
        b.step(); // sees a's revision: the full duration counts from here, on b's own clock
        b.clock.advance(TIMING.duration().minus(TIMING.renewEvery())); // a is frozen: never ticked
        assertEquals("waiting", b.mode());
        b.clock.advance(TIMING.renewEvery());
        assertEquals("held", b.mode());
        long second = b.lease.epochForAct();
        assertTrue(second > first, second + " > " + first);

        // a wakes up: its deadline has long passed by its own clock, so it acts no more.
        a.clock.pass(TIMING.duration());
        assertThrows(ActRefused.class, a.lease::epochForAct);
        assertEquals("lost", a.mode());
        assertEquals(1, a.events.lostCount());
        a.step();
        assertEquals(1, a.events.lostCount(), "lost once");
        assertEquals("held", b.mode());
    }

    @Test
    void aRenewalRefusedBecauseAnotherWroteIsTheLeaseLost() throws Exception {
        Instance a = new Instance("a");
        a.step();
        Instance b = new Instance("b");
        b.step();
        b.clock.advance(TIMING.duration()); // b takes over (a never renewed)
        assertEquals("held", b.mode());
        a.step(); // a's renewal at its old revision is refused; the entry shows b
        assertEquals("lost", a.mode());
        assertEquals(1, a.events.lostCount());
        assertTrue(a.lease.standing().reason().contains("b"), a.lease.standing().reason());
    }

    @Test
    void noRenewalWithinTheDeadlineIsTheLeaseLost() throws Exception {
        Instance a = new Instance("a");
        a.step();
        server.stop();
        a.clock.advance(TIMING.renewEvery());
        assertEquals("held", a.mode(), "one renewal missed: still within the deadline");
        a.clock.advance(TIMING.renewEvery());
        assertEquals("lost", a.mode());
        assertThrows(ActRefused.class, a.lease::epochForAct);
        assertEquals(1, a.events.lostCount());
    }

    @Test
    void aReleasedLeaseIsTakenAtOnceWithAHigherEpoch() throws Exception {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        a.step();
        b.step();
        long first = a.lease.epochForAct();
        a.lease.release();
        b.step();
        assertEquals("held", b.mode(), "no full duration to wait after a release");
        assertTrue(b.lease.epochForAct() > first);
        assertEquals(0, a.events.lostCount());
    }

    @Test
    void epochsNeverGoBackwardsWhenTheStoreIsWiped() throws Exception {
        Instance a = new Instance("a");
        a.step();
        for (int i = 0; i < 5; i++) {
            a.clock.advance(TIMING.renewEvery());
        }
        long before = a.lease.epochForAct();
        a.lease.release();
        server.stop();
        server.wipeStore();
        server.restart();

        Instance c = new Instance("c");
        c.step();
        assertEquals("waiting", c.mode(), "whoever held the wiped lease may still act: wait a full duration");
        assertNotNull(c.lease.standing().reset(), "the reset is reported at once");
        c.clock.advance(TIMING.duration().minus(TIMING.renewEvery()));
        assertEquals("waiting", c.mode());
        c.clock.advance(TIMING.renewEvery());
        assertEquals("held", c.mode());
        long after = c.lease.epochForAct();
        assertTrue(after > before, after + " > " + before);
        Standing.Reset reset = c.lease.standing().reset();
        assertNotNull(reset, "the reset is reported");
        assertTrue(reset.floor() >= before, "the floor holds the holder's last revision, at least its epoch");
        assertNull(a.lease.standing().reset());
    }
}
