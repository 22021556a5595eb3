package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A take-back owed by an enqueue that failed while NATS was away, paid once NATS answers, on a real
 * nats-server: by the enqueue's own write tokens it removes its reservation (and payload), keeps its
 * commit that landed, and leaves alone an entry that is not its own (a later enqueue's).
 */
class OwedTakeBacksTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private final DrivenClock clock = new DrivenClock();
    private InstanceRig rig;
    private OwedTakeBacks owed;

    @BeforeEach
    void open() throws Exception {
        rig = InstanceRig.open(NATS.server().url(), "owed-" + ProcessHandle.current().pid() + "-" + ++buckets,
                64 * 1024, clock, "a");
        owed = new OwedTakeBacks(rig.ledger, rig.payloads);
    }

    @AfterEach
    void close() throws InterruptedException {
        rig.close();
    }

    /** What an enqueue wrote before it lost NATS: its reservation, with its payload stored. */
    private LedgerEntry reserved(String id, String payloadName) throws Exception {
        LedgerEntry reservation = LedgerEntry.staged("enqueue-" + payloadName, Instant.now(), payloadName);
        assertTrue(rig.ledger.create(id, reservation));
        rig.payloads.put(payloadName, new ByteArrayInputStream(new byte[40 * 1024]), 64 * 1024);
        return reservation;
    }

    /** The enqueue's commit, landed (whatever its answer said). */
    private LedgerEntry committed(String id, LedgerEntry reservation) throws Exception {
        LedgerEntry committed = reservation.committed();
        assertTrue(rig.ledger.move(id, rig.ledger.read(id).orElseThrow(), committed).isPresent());
        return committed;
    }

    private boolean payloadStored(String name) throws Exception {
        return rig.payloads.names().contains(name);
    }

    @Test
    void aReservationLeftByAFailedEnqueueIsTakenBackWithItsPayloadAndTheIdIsFree() throws Exception {
        String name = Payloads.freshName("left");
        LedgerEntry reservation = reserved("left", name);
        owed.owe("left", new OwedTakeBacks.Owed(name, reservation.token(), null));
        owed.pay("left");
        assertEquals(Optional.empty(), rig.ledger.read("left"));
        assertTrue(!payloadStored(name), "its payload deleted");
        assertEquals("pending", rig.store.enqueue("left", new ByteArrayInputStream(new byte[] {1}), 1024).state(),
                "the retry enqueues it");
    }

    @Test
    void aCommitThatLandedThoughItsAnswerWasLostIsKept() throws Exception {
        String name = Payloads.freshName("landed");
        LedgerEntry reservation = reserved("landed", name);
        LedgerEntry committed = committed("landed", reservation);
        owed.owe("landed", new OwedTakeBacks.Owed(name, reservation.token(), committed.token()));
        owed.pay("landed");
        assertEquals("pending", rig.store.lookup("landed").orElseThrow().state(), "the item stays");
        assertTrue(payloadStored(name), "with its payload");
        assertEquals(0, owed.payAll(), "nothing left owed");
    }

    @Test
    void aCommitThatLandedAndMovedOnSinceKeepsItsPayload() throws Exception {
        String name = Payloads.freshName("moved");
        LedgerEntry reservation = reserved("moved", name);
        LedgerEntry committed = committed("moved", reservation);
        // A drain claimed it since: a new token, the same payload.
        Ledger.Seen now = rig.ledger.read("moved").orElseThrow();
        assertTrue(rig.ledger.move("moved", now, now.entry().committed()).isPresent());
        owed.owe("moved", new OwedTakeBacks.Owed(name, reservation.token(), committed.token()));
        owed.pay("moved");
        assertTrue(rig.ledger.read("moved").isPresent(), "the item stays");
        assertTrue(payloadStored(name), "its payload is the item's");
    }

    @Test
    void anEntryOfALaterEnqueueIsLeftAloneAndOnlyTheFailedOnesPayloadGoes() throws Exception {
        String failedName = Payloads.freshName("again");
        rig.payloads.put(failedName, new ByteArrayInputStream(new byte[40 * 1024]), 64 * 1024); // stored, then NATS went
        String laterName = Payloads.freshName("again");
        LedgerEntry later = reserved("again", laterName); // housekeeping took the failed one; a new enqueue reserved
        owed.owe("again", new OwedTakeBacks.Owed(failedName, "token-of-the-failed-one", null));
        owed.pay("again");
        assertEquals(later.token(), rig.ledger.read("again").orElseThrow().entry().token(), "the later one stands");
        assertTrue(payloadStored(laterName));
        assertTrue(!payloadStored(failedName), "the failed enqueue's payload, named by no entry, goes");
    }

    @Test
    void aDebtWhoseEntryIsGoneAsAfterAWipedStoreIsPaidByFindingNothing() throws Exception {
        String name = Payloads.freshName("wiped");
        rig.payloads.put(name, new ByteArrayInputStream(new byte[40 * 1024]), 64 * 1024);
        owed.owe("wiped", new OwedTakeBacks.Owed(name, "token-of-a-reservation-the-wipe-took", null));
        owed.pay("wiped");
        assertTrue(!payloadStored(name), "what is left of it goes");
        assertEquals(0, owed.payAll(), "nothing left owed");
        assertEquals("pending", rig.store.enqueue("wiped", new ByteArrayInputStream(new byte[] {1}), 1024).state());
    }
}
