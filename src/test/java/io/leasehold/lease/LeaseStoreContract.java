package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.lease.LeaseStore.Versioned;
import io.leasehold.lease.LeaseStoreException.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The rules of {@link LeaseStore}, run against every implementation: the real one on a nats-server
 * and the in-memory one the state-machine tests use, so the fake cannot drift from what the bus does.
 * Each test gets a store with a key never written before.
 */
public abstract class LeaseStoreContract {

    static final Instant TAKEN = Instant.parse("2025-01-02T03:04:05.123456789Z");
    private static final int RIVALS = 8;

    /** The store under test, on a fresh key. */
    protected abstract LeaseStore store();

    /** Another client of the same key, as another instance would be (its own connection). */
    protected abstract LeaseStore anotherClient() throws Exception;

    /** The store loses all its data, as when the nats store is wiped and the server restarted. */
    protected abstract void wipe() throws Exception;

    /** An operator empties the bucket ({@code nats stream purge}): entries gone, revisions kept. */
    protected abstract void purge() throws Exception;

    static LeaseRecord record(String instance, long epoch) {
        return new LeaseRecord(new Holder(instance, "host-" + instance, "build-" + instance), epoch, TAKEN,
                TAKEN.plusSeconds(5));
    }

    static Kind failure(Executable call) {
        return assertThrows(LeaseStoreException.class, call).kind();
    }

    @Test
    void aNewStoreIsEmptyAtRevisionZero() throws Exception {
        assertTrue(store().read().isEmpty());
        assertEquals(0, store().lastRevision());
    }

    @Test
    void createOnAnEmptyKeyWritesAtTheNextRevision() throws Exception {
        LeaseRecord written = record("a", 0);
        long revision = store().create(written);
        assertEquals(1, revision);
        assertEquals(new Versioned(1, written), store().read().orElseThrow());
        assertEquals(1, store().lastRevision());
    }

    @Test
    void createOverALiveValueConflictsAndLeavesNoTrace() throws Exception {
        long taken = store().create(record("a", 0));
        assertEquals(Kind.CONFLICT, failure(() -> store().create(record("b", 0))));
        assertEquals(new Versioned(taken, record("a", 0)), store().read().orElseThrow());
        assertEquals(taken, store().lastRevision(), "the refused write consumed no revision");
    }

    @Test
    void aDeleteLeavesATombstone() throws Exception {
        long taken = store().create(record("a", 0));
        store().delete(taken);
        assertTrue(store().read().isEmpty(), "a deleted key reads as empty");
        long tombstone = store().lastRevision();
        assertEquals(taken + 1, tombstone, "the delete is a revision of its own");

        long again = store().create(record("b", 0));
        assertEquals(tombstone + 1, again, "create works over a tombstone");
        assertEquals(new Versioned(again, record("b", 0)), store().read().orElseThrow());
    }

    @Test
    void updateAtTheLatestRevisionWinsAndAtAStaleOneConflicts() throws Exception {
        long taken = store().create(record("a", 0));
        long renewed = store().update(record("a", taken), taken);
        assertTrue(renewed > taken, renewed + " > " + taken);
        assertEquals(new Versioned(renewed, record("a", taken)), store().read().orElseThrow());

        assertEquals(Kind.CONFLICT, failure(() -> store().update(record("b", 0), taken)));
        assertEquals(Kind.CONFLICT, failure(() -> store().update(record("b", 0), renewed + 1)), "a future revision");
        assertEquals(new Versioned(renewed, record("a", taken)), store().read().orElseThrow());
        assertEquals(renewed, store().lastRevision(), "the refused writes left no trace");
    }

    @Test
    void deleteAtAStaleRevisionConflictsAndAtTheLatestOneEmptiesTheKey() throws Exception {
        long taken = store().create(record("a", 0));
        long renewed = store().update(record("a", taken), taken);
        assertEquals(Kind.CONFLICT, failure(() -> store().delete(taken)));
        assertEquals(renewed, store().read().orElseThrow().revision(), "a stale delete leaves the lease in place");
        assertEquals(renewed, store().lastRevision());

        store().delete(renewed);
        assertTrue(store().read().isEmpty());
    }

    @Test
    void updateAtTheDeletedValuesRevisionConflicts() throws Exception {
        long taken = store().create(record("a", 0));
        store().delete(taken);
        assertEquals(Kind.CONFLICT, failure(() -> store().update(record("a", taken), taken)));
        assertTrue(store().read().isEmpty());
    }

    /** What the server does: the tombstone is the key's latest entry, so a write expecting it succeeds. */
    @Test
    void writesAtTheTombstonesRevisionSucceed() throws Exception {
        long taken = store().create(record("a", 0));
        store().delete(taken);
        long tombstone = store().lastRevision();
        store().delete(tombstone);
        long second = store().lastRevision();
        assertEquals(tombstone + 1, second, "deleting a deleted key at its tombstone writes another one");

        assertEquals(Kind.CONFLICT, failure(() -> store().update(record("b", 0), 0)), "0 is not the latest");
        long revived = store().update(record("b", 0), second);
        assertEquals(new Versioned(revived, record("b", 0)), store().read().orElseThrow());
    }

    /** A key with no entry is at revision 0: writes expecting 0 succeed, as create does. */
    @Test
    void writesAtRevisionZeroSucceedOnAKeyNeverWritten() throws Exception {
        store().delete(0);
        assertTrue(store().read().isEmpty());
        assertEquals(1, store().lastRevision(), "deleting a key never written still leaves a tombstone");
    }

    @Test
    void updateAtRevisionZeroCreatesAKeyNeverWritten() throws Exception {
        assertEquals(1, store().update(record("a", 0), 0));
        assertEquals(new Versioned(1, record("a", 0)), store().read().orElseThrow());
    }

    @Test
    void revisionsOnlyGrowAndLastRevisionIsTheLatestWrite() throws Exception {
        List<Long> issued = new ArrayList<>();
        long at = store().create(record("a", 0));
        issued.add(at);
        for (int i = 0; i < 3; i++) {
            at = store().update(record("a", issued.get(0)), at);
            issued.add(at);
        }
        store().delete(at);
        issued.add(store().lastRevision());
        issued.add(store().create(record("b", 0)));
        for (int i = 1; i < issued.size(); i++) {
            assertTrue(issued.get(i) > issued.get(i - 1), "revisions in order of writing: " + issued);
        }
        assertEquals(issued.get(issued.size() - 1), store().lastRevision());
    }

    @Test
    void revisionsMovedPastAFloorStayPastIt() throws Exception {
        assertEquals(1001, store().moveRevisionsPast(1000));
        assertEquals(1000, store().lastRevision());
        assertEquals(1001, store().create(record("a", 0)));
        assertEquals(1001, store().read().orElseThrow().revision());
    }

    @Test
    void movingPastAFloorAlreadyReachedChangesNothing() throws Exception {
        long taken = store().create(record("a", 0));
        long live = store().update(record("a", taken), taken);
        assertEquals(live + 1, store().moveRevisionsPast(taken), "already past: the next revision is simply next");
        assertEquals(live + 1, store().moveRevisionsPast(live), "at the floor: the next write is past it already");
        assertEquals(new Versioned(live, record("a", taken)), store().read().orElseThrow(), "the live lease stays");
        assertEquals(live, store().lastRevision());
    }

    /** The caller moves revisions before taking: the move takes every entry below the floor with it. */
    @Test
    void movingPastAFloorAboveTheLiveValueRemovesIt() throws Exception {
        long taken = store().create(record("a", 0));
        assertEquals(51, store().moveRevisionsPast(50));
        assertTrue(store().read().isEmpty());
        assertEquals(Kind.CONFLICT, failure(() -> store().update(record("a", taken), taken)));
        assertEquals(51, store().create(record("b", 0)));
    }

    @Test
    void afterAWipeRevisionsStartOverUntilMovedPastTheFloor() throws Exception {
        long taken = store().create(record("a", 0));
        long floor = store().update(record("a", taken), taken);
        wipe();

        // The bucket itself is gone: writes are never taken as done, and reading makes it again.
        assertEquals(Kind.INDETERMINATE, failure(() -> store().update(record("a", taken), floor)));
        assertEquals(Kind.INDETERMINATE, failure(() -> store().create(record("b", 0))));
        assertEquals(Kind.INDETERMINATE, failure(() -> store().delete(floor)));
        assertEquals(Kind.INDETERMINATE, failure(() -> store().lastRevision()));
        assertEquals(Kind.INDETERMINATE, failure(() -> store().moveRevisionsPast(floor)));
        assertTrue(store().read().isEmpty(), "nobody holds the lease after the wipe");
        assertEquals(0, store().lastRevision(), "revisions start over: this is what the epoch floor is for");
        assertEquals(Kind.CONFLICT, failure(() -> store().update(record("a", taken), floor)));

        assertEquals(floor + 1, store().moveRevisionsPast(floor));
        assertEquals(floor + 1, store().create(record("b", 0)), "the next write is past the floor");
    }

    @Test
    void aPurgeRemovesEveryEntryButKeepsTheRevisions() throws Exception {
        long taken = store().create(record("a", 0));
        long live = store().update(record("a", taken), taken);
        purge();
        assertTrue(store().read().isEmpty());
        assertEquals(live, store().lastRevision());
        assertEquals(Kind.CONFLICT, failure(() -> store().update(record("a", taken), live)), "no entry is latest");
        assertEquals(Kind.CONFLICT, failure(() -> store().delete(live)));
        assertEquals(live + 1, store().create(record("b", 0)));
    }

    @Test
    void theEpochIsTheRecordsOrTheRevisionWhileTheRecordSaysZero() throws Exception {
        long taken = store().create(record("a", 0));
        assertEquals(taken, store().read().orElseThrow().epoch(), "epoch 0: this write's revision");
        long renewed = store().update(record("a", taken), taken);
        Versioned v = store().read().orElseThrow();
        assertEquals(renewed, v.revision());
        assertEquals(taken, v.epoch(), "a renewal keeps the epoch it was taken at");
    }

    @Test
    void recordsComeBackAsWritten() throws Exception {
        LeaseRecord full = new LeaseRecord(new Holder("inst-1", "host.example", "1.2.3+abc"), 42,
                TAKEN, TAKEN.plusNanos(987_654_321));
        long at = store().create(full);
        assertEquals(new Versioned(at, full), store().read().orElseThrow());

        LeaseRecord noTimes = new LeaseRecord(new Holder("inst-2", "", ""), 0, null, null);
        long next = store().update(noTimes, at);
        assertEquals(new Versioned(next, noTimes), store().read().orElseThrow());
    }

    @Test
    void ofRivalsUpdatingAtTheSameRevisionExactlyOneWins() throws Exception {
        long taken = store().create(record("a", 0));
        assertOneWon((store, name) -> store.update(record(name, 0), taken));
    }

    @Test
    void ofRivalsCreatingExactlyOneWins() throws Exception {
        assertOneWon((store, name) -> store.create(record(name, 0)));
    }

    /** Creating over a tombstone is two steps in the real store: they must still let only one through. */
    @Test
    void ofRivalsCreatingOverATombstoneExactlyOneWins() throws Exception {
        store().delete(store().create(record("a", 0)));
        assertOneWon((store, name) -> store.create(record(name, 0)));
    }

    private void assertOneWon(Rivals.RivalCall call) throws Exception {
        List<LeaseStore> clients = new ArrayList<>();
        for (int i = 0; i < RIVALS; i++) {
            clients.add(anotherClient());
        }
        List<Object> answers;
        try (Rivals rivals = new Rivals(clients)) {
            answers = rivals.race(call);
        }
        List<Object> won = answers.stream().filter(a -> a instanceof Long).toList();
        assertEquals(1, won.size(), "exactly one rival wins: " + answers);
        assertEquals(RIVALS - 1, answers.stream().filter(a -> a == Kind.CONFLICT).count(),
                "the others conflict: " + answers);
        Versioned now = store().read().orElseThrow();
        assertEquals(won.get(0), now.revision());
        assertEquals(Rivals.name(answers.indexOf(won.get(0))), now.record().holder().instance());
        assertEquals(now.revision(), store().lastRevision(), "no loser wrote anything");
    }
}
