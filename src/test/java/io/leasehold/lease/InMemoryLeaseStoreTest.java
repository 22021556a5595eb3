package io.leasehold.lease;

import static io.leasehold.lease.LeaseStoreContract.failure;
import static io.leasehold.lease.LeaseStoreContract.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.InMemoryLeaseStore.Call;
import io.leasehold.lease.LeaseStore.Versioned;
import io.leasehold.lease.LeaseStoreException.Kind;
import io.leasehold.lease.ScriptedFaults.Gate;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The faults the in-memory store injects do what the state-machine tests rely on. */
class InMemoryLeaseStoreTest {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final ExecutorService caller = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopCaller() {
        caller.shutdownNow();
    }

    @Test
    void aLostAnswerIsIndeterminateButTheWriteLanded() throws Exception {
        long taken = store.create(record("a", 0));
        store.loseAnswerOfNext(Call.UPDATE);
        assertEquals(Kind.INDETERMINATE, failure(() -> store.update(record("a", taken), taken)));
        assertEquals(new Versioned(taken + 1, record("a", taken)), store.read().orElseThrow());

        store.loseAnswerOfNext(Call.DELETE);
        assertEquals(Kind.INDETERMINATE, failure(() -> store.delete(taken + 1)));
        assertTrue(store.read().isEmpty(), "the delete landed");
        assertEquals(taken + 2, store.lastRevision());
    }

    @Test
    void aDeniedCallChangesNothing() throws Exception {
        store.denyNext(Call.CREATE);
        LeaseStoreException denied = assertThrows(LeaseStoreException.class,
                () -> store.create(record("a", 0)));
        assertEquals(Kind.DENIED, denied.kind());
        assertTrue(denied.getMessage().contains("Permissions Violation"), denied.getMessage());
        assertTrue(store.read().isEmpty());
        assertEquals(0, store.lastRevision());
        assertEquals(1, store.create(record("a", 0)), "only the next call was denied");
    }

    @Test
    void aDeniedKindStaysDeniedUntilAllowed() throws Exception {
        long taken = store.create(record("a", 0));
        store.deny(Call.UPDATE);
        assertEquals(Kind.DENIED, failure(() -> store.update(record("a", taken), taken)));
        assertEquals(Kind.DENIED, failure(() -> store.update(record("a", taken), taken)));
        assertEquals(taken, store.read().orElseThrow().revision(), "reading is still granted");
        store.allow(Call.UPDATE);
        assertEquals(taken + 1, store.update(record("a", taken), taken));
    }

    @Test
    void scriptedFailuresComeInOrderForTheirKindOnlyAndChangeNothing() throws Exception {
        store.failNext(Call.CREATE, Kind.INDETERMINATE);
        store.failNext(Call.CREATE, Kind.CONFLICT);
        assertEquals(Kind.INDETERMINATE, failure(() -> store.create(record("a", 0))));
        assertEquals(0, store.lastRevision(), "a failed call did not act; other kinds are not affected");
        assertEquals(Kind.CONFLICT, failure(() -> store.create(record("a", 0))));
        assertEquals(1, store.create(record("a", 0)));
    }

    @Test
    void aHeldCallBlocksUntilReleasedWhileOtherCallsGoOn() throws Exception {
        long taken = store.create(record("a", 0));
        Gate gate = store.holdNext(Call.UPDATE);
        Future<Long> renewal = caller.submit(() -> store.update(record("a", taken), taken));
        gate.awaitHeld();
        assertTrue(gate.held());
        assertFalse(renewal.isDone(), "the call waits at its gate");
        assertEquals(taken, store.read().orElseThrow().revision(), "held before it acts: nothing written yet");

        gate.release();
        assertEquals(taken + 1, renewal.get(10, TimeUnit.SECONDS));
        assertFalse(gate.held());
    }

    @Test
    void aHeldAnswerComesLateForAWriteThatLanded() throws Exception {
        long taken = store.create(record("a", 0));
        Gate gate = store.holdAnswerOfNext(Call.UPDATE);
        Future<Long> renewal = caller.submit(() -> store.update(record("b", 0), taken));
        gate.awaitHeld();
        assertFalse(renewal.isDone());
        assertEquals(new Versioned(taken + 1, record("b", 0)), store.read().orElseThrow(), "already written");
        gate.release();
        assertEquals(taken + 1, renewal.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aHeldCallGivenUpIsIndeterminate() throws Exception {
        Gate gate = store.holdNext(Call.CREATE);
        Future<Long> create = caller.submit(() -> store.create(record("a", 0)));
        gate.awaitHeld();
        create.cancel(true);
        caller.shutdown();
        assertTrue(caller.awaitTermination(10, TimeUnit.SECONDS), "the interrupted call returned");
        assertEquals(List.of(new InMemoryLeaseStore.Logged(Call.CREATE, "a", "INDETERMINATE")), store.log());
        assertEquals(0, store.lastRevision());
    }

    @Test
    void theLogShowsEveryCallWithItsAnswer() throws Exception {
        long taken = store.create(record("a", 0));
        failure(() -> store.update(record("b", 0), taken + 5));
        store.delete(taken);
        assertEquals(List.of(Call.CREATE, Call.UPDATE, Call.DELETE), store.calls());
        assertEquals("[CREATE(a) -> 1, UPDATE(b at 6) -> CONFLICT, DELETE(at 1) -> 2]", store.log().toString());
    }
}
