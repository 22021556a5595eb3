package io.leasehold.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseRecord;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsKvLeaseStore;
import io.leasehold.nats.NatsSettings;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.NatsServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** When a borrowed epoch goes stale, on a real nats-server, with this process's time driven by the test. */
class BorrowedEpochTest {

    static final LeaseTiming TIMING = new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(5),
            Duration.ofSeconds(10));
    static final Holder HOLDER = new Holder("holder-1", "host", "test");

    NatsServer server;
    NatsBus bus;
    NatsKvLeaseStore store;
    final DrivenClock clock = new DrivenClock();
    final List<String> stale = new ArrayList<>();
    long revision;
    BorrowedEpoch watch;

    @BeforeEach
    void holderTookTheLease() throws Exception {
        server = NatsServer.start();
        bus = NatsConnector.connect(NatsSettings.of(server.url()).withRequestTimeout(Duration.ofMillis(500)));
        store = new NatsKvLeaseStore(bus, "lease-" + UUID.randomUUID().toString().substring(0, 8), "controller");
        store.ensureBucket();
        revision = store.create(record(HOLDER, 0)); // as a take writes it: epoch 0 = this revision
        LeaseStore.Versioned seen = store.read().orElseThrow();
        watch = new BorrowedEpoch(store, seen, clock.monotonicNanos(), TIMING, clock, stale::add);
    }

    @AfterEach
    void close() throws Exception {
        bus.close();
        server.close();
    }

    static LeaseRecord record(Holder holder, long epoch) {
        Instant at = Instant.parse("2026-01-02T03:04:05Z");
        return new LeaseRecord(holder, epoch, at, at);
    }

    /** The holder renews: a new revision, the same epoch. */
    void renew() throws Exception {
        revision = store.update(record(HOLDER, watch.epoch()), revision);
    }

    @Test
    void renewalsKeepTheEpochGood() throws Exception {
        assertEquals(revision, watch.epoch(), "the epoch is the take's revision");
        for (int i = 0; i < 6; i++) {
            clock.pass(TIMING.renewEvery());
            renew();
            watch.check();
        }
        assertEquals(List.of(), stale, "30s of renewals, each seen");
    }

    @Test
    void anotherEpochMakesItStale() throws Exception {
        clock.pass(TIMING.renewEvery());
        long taken = store.update(record(new Holder("holder-2", "host", "test"), 0), revision);
        watch.check();
        assertEquals(1, stale.size(), stale.toString());
        assertTrue(stale.get(0).contains("now names epoch " + taken), stale.get(0));
        watch.check();
        assertEquals(1, stale.size(), "said once");
    }

    @Test
    void aReleasedLeaseMakesItStale() throws Exception {
        store.delete(revision);
        watch.check();
        assertEquals(1, stale.size());
        assertTrue(stale.get(0).contains("given back or deleted"), stale.get(0));
    }

    @Test
    void aLeaseUnrenewedForAFullDurationIsStale() throws Exception {
        clock.pass(TIMING.renewEvery());
        watch.check();
        clock.pass(TIMING.duration().minus(TIMING.renewEvery()).minusMillis(1));
        watch.check();
        assertEquals(List.of(), stale, "unrenewed for just under a duration");
        clock.pass(Duration.ofMillis(1));
        watch.check();
        assertEquals(1, stale.size());
        assertTrue(stale.get(0).contains("not renewed for a full leasehold.lease.duration"), stale.get(0));
    }

    @Test
    void noConfirmingReadForTheRenewDeadlineIsStale() throws Exception {
        clock.pass(TIMING.renewEvery());
        renew();
        watch.check();
        server.stop();
        clock.pass(TIMING.renewDeadline().minusMillis(1));
        watch.check();
        assertEquals(List.of(), stale, "an unanswered read within the deadline is only a warning");
        clock.pass(Duration.ofMillis(1));
        watch.check();
        assertEquals(1, stale.size());
        assertTrue(stale.get(0).contains("could not be read for leasehold.lease.renew-deadline"), stale.get(0));
    }
}
